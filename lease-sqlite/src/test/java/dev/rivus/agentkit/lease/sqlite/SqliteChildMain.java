/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseManagerBuilder;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A child JVM for the SQLite multi-process tests. It reports on standard output, one fact a line,
 * and reports any unexpected exception as a line starting with {@code ERROR}.
 *
 * <ul>
 *   <li>{@code stream <db> <key>}: acquires and releases the key forever, printing {@code ACQUIRED
 *       <generation>} after each acquisition returned; the test kills it.
 *   <li>{@code savers <db> <key> <threads> <millis>}: after {@code GO} on standard input, threads
 *       race compare-and-set saves on the key; prints {@code WON <revision>} per win and {@code
 *       DONE ...}.
 *   <li>{@code hammer <db> <millis> <busyMillis>}: acquires and releases a few keys through a lease
 *       manager as fast as it can; prints {@code DONE ...} with every repository call's outcome and
 *       the longest call.
 *   <li>{@code key lock <db> <key>}: takes the key lock, prints {@code FENCED}, and waits to be
 *       killed.
 *   <li>{@code cycles <db> <n> <syncEveryWrite>}: n times: acquires one key through a lease
 *       manager, printing {@code ACQUIRED <generation>} after the acquisition returned, renews
 *       another record twice (one {@code save}, one {@code saveAll}), and releases the key; then
 *       prints {@code DONE}.
 *   <li>{@code acquire <db> <key>}: acquires the key once, prints {@code ACQUIRED <generation>},
 *       releases it and prints {@code DONE}.
 *   <li>{@code hold <db> <key>}: acquires the key, prints {@code ACQUIRED <generation>}, releases
 *       it once standard input closes, and prints {@code RELEASED}.
 * </ul>
 */
public final class SqliteChildMain {

  private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  private SqliteChildMain() {}

  /**
   * Runs one mode.
   *
   * @param args the mode and its arguments
   * @throws Exception if the mode fails
   */
  public static void main(String[] args) throws Exception {
    Path db = Path.of(args[1]);
    switch (args[0]) {
      case "stream" -> stream(db, args[2]);
      case "savers" -> savers(db, args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]));
      case "hammer" -> hammer(db, Long.parseLong(args[2]), Long.parseLong(args[3]));
      case "fence" -> keyLock(db, args[2]);
      case "cycles" -> cycles(db, Integer.parseInt(args[2]), Boolean.parseBoolean(args[3]));
      case "acquire" -> acquireOnce(db, args[2]);
      case "hold" -> holdUntilStdinCloses(db, args[2]);
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  private static void stream(Path db, String key) {
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db);
        LeaseManager leases = countingManager(repository).build()) {
      OUT.println("READY");
      while (true) {
        try (Lease lease = leases.acquire(key)) {
          OUT.println("ACQUIRED " + lease.generation());
        }
      }
    }
  }

  /**
   * A manager whose wall clock stands still at {@link Samples#TIME}: its acquisitions raise a
   * generation by one each (SPEC 1: the greater of one more and the wall clock), so the tests can
   * count them in the generations.
   */
  private static LeaseManagerBuilder countingManager(LeaseRepository repository) {
    return LeaseManager.builder(repository).wallClock(Clock.fixed(Samples.TIME, ZoneOffset.UTC));
  }

  private static void savers(Path db, String key, int threads, long millis) throws Exception {
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      OUT.println("READY");
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      long end = System.nanoTime() + Duration.ofMillis(millis).toNanos();
      List<Thread> racers = new ArrayList<>();
      AtomicLong wins = new AtomicLong();
      AtomicLong raises = new AtomicLong();
      AtomicLong conflicts = new AtomicLong();
      for (int t = 0; t < threads; t++) {
        HolderIdentity self =
            new HolderIdentity(
                new ProcessIdentity("child", null, null, ProcessHandle.current().pid(), null),
                "saver-" + ProcessHandle.current().pid() + "-" + t);
        Thread racer =
            new Thread(
                () -> race(repository, key, self, end, wins, raises, conflicts), "saver-" + t);
        racers.add(racer);
        racer.start();
      }
      for (Thread racer : racers) {
        racer.join();
      }
      OUT.println("DONE wins=" + wins + " raises=" + raises + " conflicts=" + conflicts);
    }
  }

  private static void race(
      LeaseRepository repository,
      String key,
      HolderIdentity self,
      long end,
      AtomicLong wins,
      AtomicLong raises,
      AtomicLong conflicts) {
    for (int attempt = 0; System.nanoTime() < end; attempt++) {
      try {
        LeaseSnapshot current = repository.load(key).orElseThrow();
        boolean raise = attempt % 2 == 1;
        LeaseWrite next =
            raise
                // A fixed wall clock, so that each acquisition raises the generation by one and
                // the test can count them in it.
                ? current.acquisition(self, Samples.TTL, Samples.TIME)
                : current.renewal(Instant.now());
        repository.save(next);
        wins.incrementAndGet();
        raises.addAndGet(raise ? 1 : 0);
        OUT.println("WON " + next.snapshot().revision());
      } catch (RevisionConflict expected) {
        conflicts.incrementAndGet();
      } catch (RuntimeException e) {
        OUT.println("ERROR " + e);
      }
    }
  }

  private static void hammer(Path db, long millis, long busyMillis) throws Exception {
    SqliteOptions options = SqliteOptions.builder().busyWait(Duration.ofMillis(busyMillis)).build();
    try (SqliteLeaseRepository sqlite = SqliteLeaseRepository.open(db, options)) {
      TimedRepository repository = new TimedRepository(sqlite);
      long acquired = 0;
      long held = 0;
      long failures = 0;
      try (LeaseManager leases =
          countingManager(repository)
              .ttl(Duration.ofSeconds(30))
              .heartbeat(Duration.ofSeconds(10))
              .build()) {
        OUT.println("READY");
        long end = System.nanoTime() + Duration.ofMillis(millis).toNanos();
        for (int i = 0; System.nanoTime() < end; i++) {
          try (Lease lease = leases.acquire("hammer-" + (i % 3))) {
            acquired += lease.generation() > 0 ? 1 : 0;
          } catch (LeaseHeld busyKey) {
            held++;
          } catch (LeaseRepositoryFailure failure) {
            failures++;
          } catch (RuntimeException e) {
            OUT.println("ERROR " + e);
          }
        }
      }
      OUT.println(
          "DONE acquired="
              + acquired
              + " held="
              + held
              + " managerFailures="
              + failures
              + " "
              + repository.summary());
    }
  }

  private static void cycles(Path db, int cycles, boolean syncEveryWrite) {
    SqliteOptions options = SqliteOptions.builder().syncEveryWrite(syncEveryWrite).build();
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db, options);
        LeaseManager leases = LeaseManager.builder(repository).build()) {
      LeaseWrite create = Samples.firstWrite("renewed", "renewer");
      repository.save(create);
      LeaseSnapshot renewed = create.snapshot();
      for (int i = 0; i < cycles; i++) {
        try (Lease lease = leases.acquire("cycled")) {
          OUT.println("ACQUIRED " + lease.generation());
          LeaseWrite renewal = renewed.renewal(Instant.now());
          repository.save(renewal);
          LeaseWrite batched = renewal.snapshot().renewal(Instant.now());
          List<SaveOutcome> outcomes = repository.saveAll(List.of(batched));
          if (!outcomes.get(0).isSaved()) {
            OUT.println("ERROR " + outcomes.get(0));
          }
          renewed = batched.snapshot();
        }
      }
    }
    OUT.println("DONE");
  }

  private static void acquireOnce(Path db, String key) {
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db);
        LeaseManager leases = LeaseManager.builder(repository).build();
        Lease lease = leases.acquire(key)) {
      OUT.println("ACQUIRED " + lease.generation());
    }
    OUT.println("DONE");
  }

  private static void holdUntilStdinCloses(Path db, String key) throws Exception {
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db);
        LeaseManager leases = LeaseManager.builder(repository).build()) {
      Lease lease = leases.acquire(key);
      OUT.println("ACQUIRED " + lease.generation());
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      lease.close();
      OUT.println("RELEASED");
    }
  }

  private static void keyLock(Path db, String key) throws Exception {
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      LeaseRepository.KeyLock keyLock = repository.lockKey(key);
      OUT.println("FENCED");
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      keyLock.close();
    }
  }

  /**
   * Times every call and sorts its outcome; anything but success, conflict or failure is an error.
   */
  private static final class TimedRepository extends ForwardingLeaseRepository {
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong busyFailures = new AtomicLong();
    private final AtomicLong otherFailures = new AtomicLong();
    private final AtomicLong maxNanos = new AtomicLong();

    TimedRepository(LeaseRepository inner) {
      super(inner);
    }

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return timed("load", () -> super.load(key));
    }

    @Override
    public void save(LeaseWrite write) {
      timed(
          "save",
          () -> {
            super.save(write);
            return null;
          });
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      List<SaveOutcome> outcomes = timed("saveAll", () -> super.saveAll(writes));
      for (SaveOutcome outcome : outcomes) {
        if (outcome.failure() instanceof RevisionConflict) {
          conflicts.incrementAndGet();
        } else if (outcome.failure() instanceof LeaseRepositoryFailure failure) {
          count(failure);
        }
      }
      return outcomes;
    }

    private <T> T timed(String what, Supplier<T> call) {
      long start = System.nanoTime();
      try {
        return call.get();
      } catch (RevisionConflict e) {
        conflicts.incrementAndGet();
        throw e;
      } catch (LeaseRepositoryFailure e) {
        count(e);
        throw e;
      } catch (RuntimeException e) {
        OUT.println("ERROR " + what + ": " + e);
        throw e;
      } finally {
        calls.incrementAndGet();
        maxNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
      }
    }

    private void count(LeaseRepositoryFailure e) {
      if (e.getMessage().contains("busy wait budget")) {
        busyFailures.incrementAndGet();
      } else {
        otherFailures.incrementAndGet();
        OUT.println("ERROR unexpected failure: " + e);
      }
    }

    String summary() {
      return "calls="
          + calls
          + " conflicts="
          + conflicts
          + " busyFailures="
          + busyFailures
          + " otherFailures="
          + otherFailures
          + " maxMillis="
          + maxNanos.get() / 1_000_000;
    }
  }
}
