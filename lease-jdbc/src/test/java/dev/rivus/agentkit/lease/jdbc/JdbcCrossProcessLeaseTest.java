/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static dev.rivus.agentkit.lease.jdbc.Refusals.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.platform.SystemProcesses;
import dev.rivus.agentkit.lease.testkit.ConcurrentSaversMain;
import dev.rivus.agentkit.lease.testkit.CrossProcessLeaseContract;
import dev.rivus.agentkit.lease.testkit.LeaseHolderMain;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import dev.rivus.agentkit.lease.testkit.Samples;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shared cross-process contract on a fresh table of a database server per test (a holder killed
 * with SIGKILL is taken over at once, one stopped beyond the TTL is taken over and fenced out,
 * racing processes have one winner); savers in several JVMs racing on one record; and holders that
 * act as processes on another host, killed or stopped, taken over only after the TTL, in real time.
 * Run on each server by a subclass. The children open the table through {@link
 * JdbcRepositoryFactory}.
 */
abstract class JdbcCrossProcessLeaseTest extends CrossProcessLeaseContract {

  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Pattern COUNT = Pattern.compile("\\b(wins|raises)=(\\d+)");

  /** The TTL of the holder on another host and of this host's manager. */
  private static final Duration TTL_OF_BOTH = Duration.ofSeconds(3);

  private static final Duration HEARTBEAT_OF_BOTH = TTL_OF_BOTH.dividedBy(4);

  private static final SystemProcesses THIS_HOST = SystemProcesses.detect();

  /** The server this test runs on. */
  abstract TestServer server();

  @RegisterExtension final FreshTables tables = new FreshTables(server());

  private final List<ChildJvm> children = new ArrayList<>();
  private @Nullable String spec;

  @Override
  protected Class<? extends RepositoryFactory> repositoryFactory() {
    return JdbcRepositoryFactory.class;
  }

  @Override
  protected String newStorageSpec() {
    spec = JdbcRepositoryFactory.spec(server(), tables.create());
    return spec;
  }

  @AfterEach
  void destroyChildren() {
    children.forEach(ChildJvm::close);
    children.clear();
  }

  /**
   * Three JVMs of two threads each race read-compare-write cycles on one record (as the contract's
   * threads do in one JVM): every revision has exactly one winner across the processes, none is
   * skipped, and the generation rose once per acquisition won.
   */
  @Test
  void concurrentSaversInThreeProcessesHaveExactlyOneWinnerPerRevision() throws Exception {
    String key = "contended";
    String storage = requireSpec();
    try (LeaseRepository repository = new JdbcRepositoryFactory().open(storage)) {
      repository.save(Samples.firstWrite(key, "seed"));
      List<ChildJvm> savers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ChildJvm saver =
            ChildJvm.start(
                ConcurrentSaversMain.class,
                JdbcRepositoryFactory.class.getName(),
                storage,
                key,
                "2",
                "PT2S");
        children.add(saver);
        savers.add(saver);
      }
      for (ChildJvm saver : savers) {
        saver.awaitLine("READY ", PATIENCE);
      }

      savers.forEach(saver -> saver.send("GO"));

      List<Long> won = new ArrayList<>();
      long raises = 0;
      for (ChildJvm saver : savers) {
        String done = saver.awaitLine("DONE ", PATIENCE);
        System.out.println(saver + ": " + done); // kept in the surefire report, for the record
        assertThat(saver.awaitExit(PATIENCE)).as("exit code of %s: %s", saver, done).isZero();
        List<Long> mine = new ArrayList<>();
        for (String line : saver.stdoutLines()) {
          if (line.startsWith("WON ")) {
            mine.add(Long.parseLong(line.substring(4)));
          }
        }
        assertThat(mine).as("revisions %s reports", saver).hasSize((int) count(done, "wins"));
        won.addAll(mine);
        raises += count(done, "raises");
      }
      LeaseSnapshot last = repository.load(key).orElseThrow();
      Collections.sort(won);
      assertThat(won).as("revisions won across processes").doesNotHaveDuplicates();
      assertThat(won)
          .as("revisions won across processes, in order: 2 to the final one, none skipped")
          .isEqualTo(LongStream.rangeClosed(2, last.revision()).boxed().toList());
      assertThat(savers)
          .as("processes that won at least one revision")
          .allSatisfy(
              saver -> assertThat(saver.stdoutLines()).anyMatch(line -> line.startsWith("WON ")));
      assertThat(last.generation())
          .as("final generation: the first plus one per acquisition won")
          .isEqualTo(Samples.first(key, "seed").generation() + raises);
    }
  }

  /**
   * A holder on another host (another host name and boot id, its wall clock six hours ahead) is
   * killed with SIGKILL. Its pid is dead here, and this host would take over at once if the record
   * were its own; since it is another machine's pid, this host takes over only once it has seen the
   * record unchanged for the TTL: its blocking acquire takes at least the TTL.
   */
  @Test
  void aKilledHolderOnAnotherHostIsTakenOverOnlyAfterTheTtlThoughItsPidIsDeadHere()
      throws Exception {
    String key = "two-hosts/killed";
    try (LeaseRepository repository = new JdbcRepositoryFactory().open(requireSpec())) {
      ChildJvm child = startOnAnotherHost(key, Duration.ofHours(6));
      long childGeneration = Long.parseLong(child.awaitLine("ACQUIRED ", PATIENCE).substring(9));
      LeaseSnapshot record = repository.load(key).orElseThrow();
      assertThat(record.holder().process().pid()).as("the holder's pid").isEqualTo(child.pid());
      assertThat(record.updatedAt())
          .as("the holder's time, by its clock six hours ahead")
          .isAfter(Instant.now().plus(Duration.ofHours(5)));

      child.kill();
      assertThat(THIS_HOST.judge(asIfOnThisHost(record.holder().process())))
          .as("the dead holder's pid and start time, judged as if the record were this host's")
          .isEqualTo(Liveness.GONE);
      try (LeaseManager here =
          LeaseManager.builder(repository).ttl(TTL_OF_BOTH).heartbeat(HEARTBEAT_OF_BOTH).build()) {
        long start = System.nanoTime();
        LeaseHeld atOnce =
            refused(
                "this host's first acquire after the holder on another host was killed",
                () -> here.acquire(key));
        assertThat(atOnce.holderLiveness()).isEqualTo(Liveness.UNKNOWN);
        Lease lease = here.acquire(key, PATIENCE);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(waited).as("how long the takeover waited").isGreaterThanOrEqualTo(TTL_OF_BOTH);
        assertThat(lease.generation()).isGreaterThan(childGeneration);
      }
    }
  }

  /**
   * A holder on another host, its wall clock six hours behind, stopped with SIGSTOP: this host
   * takes over only after the TTL, although the record's time says it is hours old; once continued,
   * the holder learns that it lost the lease.
   */
  @Test
  void aStoppedHolderOnAnotherHostWithItsClockHoursBehindIsTakenOverOnlyAfterTheTtl()
      throws Exception {
    String key = "two-hosts/stopped";
    try (LeaseRepository repository = new JdbcRepositoryFactory().open(requireSpec())) {
      ChildJvm child = startOnAnotherHost(key, Duration.ofHours(-6));
      long childGeneration = Long.parseLong(child.awaitLine("ACQUIRED ", PATIENCE).substring(9));
      assertThat(repository.load(key).orElseThrow().updatedAt())
          .as("the holder's time, by its clock six hours behind")
          .isBefore(Instant.now().minus(Duration.ofHours(5)));

      child.suspend();
      try (LeaseManager here =
          LeaseManager.builder(repository).ttl(TTL_OF_BOTH).heartbeat(HEARTBEAT_OF_BOTH).build()) {
        long start = System.nanoTime();
        refused(
            "this host's first acquire after the holder on another host was stopped",
            () -> here.acquire(key));
        Lease lease = here.acquire(key, PATIENCE);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        child.resume();

        assertThat(waited).as("how long the takeover waited").isGreaterThanOrEqualTo(TTL_OF_BOTH);
        assertThat(lease.generation()).isGreaterThan(childGeneration);
        assertThat(child.awaitLine("LOST ", PATIENCE)).matches("LOST (EXPIRED|TAKEN_OVER)");
        assertThat(child.awaitExit(PATIENCE)).isEqualTo(LeaseHolderMain.EXIT_LOST);
      }
    }
  }

  /** A lease holder acting as a process on another host, with its wall clock that far off. */
  private ChildJvm startOnAnotherHost(String key, Duration wallClockOffset) {
    Assumptions.assumeTrue(
        THIS_HOST.currentProcess().bootId() != null,
        "this machine's platform reads no boot id, so it judges no pid");
    ChildJvm child =
        ChildJvm.start(
            LeaseHolderMain.class,
            List.of(
                "--factory=" + JdbcRepositoryFactory.class.getName(),
                "--spec=" + requireSpec(),
                "--key=" + key,
                "--ttl=" + TTL_OF_BOTH,
                "--heartbeat=" + HEARTBEAT_OF_BOTH,
                "--host=host-a.example",
                "--boot-id=" + UUID.randomUUID(),
                "--wall-clock-offset=" + wallClockOffset));
    children.add(child);
    return child;
  }

  /** The same process facts, but with this machine's host name and boot id. */
  private static ProcessIdentity asIfOnThisHost(ProcessIdentity elsewhere) {
    ProcessIdentity self = THIS_HOST.currentProcess();
    return new ProcessIdentity(
        self.host(),
        self.bootId(),
        elsewhere.pidNamespace(),
        elsewhere.pid(),
        elsewhere.processStart());
  }

  private String requireSpec() {
    if (spec == null) {
      throw new IllegalStateException("no storage spec: newStorageSpec() has not run");
    }
    return spec;
  }

  private static long count(String done, String name) {
    Matcher m = COUNT.matcher(done);
    while (m.find()) {
      if (m.group(1).equals(name)) {
        return Long.parseLong(m.group(2));
      }
    }
    throw new AssertionError("no " + name + "= in '" + done + "'");
  }
}
