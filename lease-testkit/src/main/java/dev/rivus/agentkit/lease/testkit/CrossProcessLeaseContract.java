/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The cross-process contract of a repository adapter, with real child JVMs running {@link
 * LeaseHolderMain}: takeover of a killed holder at once, takeover of a stopped holder after the TTL
 * with its late writes fenced out, and one winner among racing processes.
 *
 * <p>An adapter's test extends this class, names a {@link RepositoryFactory} the children can
 * instantiate, and gives a spec of fresh storage per test; the parent opens the same storage with
 * the same factory unless {@link #openInParent(String)} is overridden. The tests carry the tag
 * {@code cross-process}; each starts one or two JVMs and takes a few seconds.
 *
 * <p>Not thread-safe: JUnit runs one test of an instance at a time.
 */
@Tag("cross-process")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class CrossProcessLeaseContract {

  /** Long enough that a takeover within a test cannot be explained by the TTL running out. */
  private static final LeaseConfig LONG =
      new LeaseConfig(Duration.ofSeconds(60), Duration.ofSeconds(5));

  /** Short, so that a holder stopped for longer than the TTL can be taken over within seconds. */
  private static final LeaseConfig SHORT =
      new LeaseConfig(Duration.ofSeconds(2), Duration.ofMillis(500));

  /** How long the parent's first write may go ahead of a stopped holder before it is continued. */
  private static final Duration FIRST_WRITE_HEAD_START = Duration.ofMillis(500);

  /** How long a child JVM may take to start and answer, on a loaded two-core machine. */
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private final List<AutoCloseable> resources = new ArrayList<>();
  private @Nullable Path scratch;
  private @Nullable String spec;
  private @Nullable LeaseRepository parentRepository;
  private String key = "cross-process";

  /** For subclasses. */
  protected CrossProcessLeaseContract() {}

  /**
   * Returns the factory class the children instantiate by name to open the storage.
   *
   * @return a public class with a public no-argument constructor
   */
  protected abstract Class<? extends RepositoryFactory> repositoryFactory();

  /**
   * Returns a spec naming fresh, empty storage for one test. Called once before each test.
   *
   * @return the spec passed to {@link RepositoryFactory#open(String)} in the parent and the
   *     children
   * @throws Exception if the storage cannot be prepared
   */
  protected abstract String newStorageSpec() throws Exception;

  /**
   * Opens the storage in the test's own JVM. By default through {@link #repositoryFactory()}.
   *
   * @param spec the spec of {@link #newStorageSpec()}
   * @return the repository; the contract closes it after the test
   * @throws Exception if it cannot be opened
   */
  protected LeaseRepository openInParent(String spec) throws Exception {
    return RepositoryFactory.byClassName(repositoryFactory().getName()).open(spec);
  }

  /**
   * Prepares fresh storage, a scratch directory for the journal, and the parent's repository.
   *
   * @param test the running test, whose name becomes the lease key
   * @throws Exception if the storage cannot be prepared
   */
  @BeforeEach
  public final void prepareStorage(TestInfo test) throws Exception {
    key = "cross-process/" + test.getTestMethod().map(m -> m.getName()).orElse("test");
    scratch = Files.createTempDirectory("lease-cross-process");
    spec = newStorageSpec();
    parentRepository = openInParent(spec);
  }

  /**
   * Destroys every child still running, closes the parent's managers and repository, and deletes
   * the scratch directory.
   *
   * @throws Exception if closing fails
   */
  @AfterEach
  public final void cleanUp() throws Exception {
    List<AutoCloseable> closing = new ArrayList<>(resources);
    resources.clear();
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
    if (parentRepository != null) {
      parentRepository.close();
      parentRepository = null;
    }
    if (scratch != null) {
      deleteRecursively(scratch);
      scratch = null;
    }
  }

  /**
   * A holder killed with SIGKILL is taken over at once: the parent's first {@code acquire} after
   * the child's death succeeds (no {@code LeaseHeld}, although the TTL is a minute) with the
   * child's generation plus one. This needs a platform that can tell the child is gone ({@code
   * /proc} on Linux).
   *
   * @throws Exception if the test fails
   */
  @Test
  public void killedHolderIsTakenOverAtOnceWithTheNextGeneration() throws Exception {
    Path journal = scratch().resolve("journal");
    ChildJvm child = startHolder(LONG, journal, false);
    long childGeneration = number(child.awaitLine("ACQUIRED ", PATIENCE), 1);
    child.awaitLine("WROTE ", PATIENCE);

    child.kill();
    LeaseManager parent = manager(LONG);
    Lease lease;
    try {
      lease = parent.acquire(key);
    } catch (LeaseHeld held) {
      throw new AssertionError(
          "the parent's first acquire after the holder was killed failed: liveness of the dead"
              + " holder was judged "
              + held.holderLiveness()
              + " instead of GONE",
          held);
    }

    assertThat(lease.generation()).as("the parent's generation").isGreaterThan(childGeneration);
    appendFenced(lease, journal);
    assertJournalMonotonic(journal, childGeneration, lease.generation());
  }

  /**
   * A holder stopped with SIGSTOP for longer than the TTL is taken over by a blocking {@code
   * acquire}; once continued, it notices the loss ({@code LOST}, its own exit code), and the
   * journal, written by both under the key lock, never goes back: no write of the old holder
   * follows the new holder's first.
   *
   * @throws Exception if the test fails
   */
  @Test
  public void stoppedHolderIsTakenOverAfterTheTtlAndItsLateWritesAreFencedOut() throws Exception {
    Path journal = scratch().resolve("journal");
    // The child spends most of its time inside the key lock, between its re-read and its write, and
    // its work is not interrupted on loss: a stop most likely catches it there, and once continued
    // it completes a write as a stale holder. Only the key lock keeps that write before the
    // parent's.
    ChildJvm child =
        startHolder(SHORT, journal, false, "--work=PT0.2S", "--pause=PT0.01S", "--uninterruptible");
    long childGeneration = number(child.awaitLine("ACQUIRED ", PATIENCE), 1);
    child.awaitLine("WROTE ", PATIENCE);
    child.awaitLine("WORKING ", PATIENCE);

    child.suspend();
    Lease lease = manager(SHORT).acquire(key, Duration.ofSeconds(15));
    assertThat(lease.generation()).as("the parent's generation").isGreaterThan(childGeneration);
    // The stopped child most likely holds the key lock mid-work: then the parent's first write
    // waits
    // for it. Give that write a moment to land first if it can (with a broken key lock it would),
    // then
    // let the child go on.
    CompletableFuture<Void> firstWrite =
        CompletableFuture.runAsync(
            () -> {
              try {
                appendFenced(lease, journal);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    try {
      firstWrite.get(FIRST_WRITE_HEAD_START.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException waitsForTheKeyLock) {
      // expected when the stopped child holds the key lock
    }
    child.resume();

    assertThat(child.awaitLine("LOST ", PATIENCE)).matches("LOST (EXPIRED|TAKEN_OVER)");
    assertThat(child.awaitExit(PATIENCE))
        .as("exit code of the holder that lost its lease")
        .isEqualTo(LeaseHolderMain.EXIT_LOST);
    firstWrite.get(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
    appendFenced(lease, journal);
    assertThat(lease.isHeld()).as("the parent still holds the lease").isTrue();
    assertJournalMonotonic(journal, childGeneration, lease.generation());
  }

  /**
   * Parties with different TTLs on one key: a holder in another process promised a longer TTL than
   * the observer's own, and stopped (SIGSTOP). The observer waits for the holder's TTL, counted on
   * its own clock, not its own shorter one; then it takes over, and the holder, once continued,
   * reports the loss.
   *
   * @throws Exception if the test fails
   */
  @Test
  public void aStoppedHolderWithALongerTtlIsTakenOverOnlyAfterItsOwnTtl() throws Exception {
    LeaseConfig holderTtl = new LeaseConfig(Duration.ofSeconds(6), Duration.ofMillis(1500));
    ChildJvm child = startHolder(holderTtl, null, false);
    long childGeneration = number(child.awaitLine("ACQUIRED ", PATIENCE), 1);
    child.suspend();
    LeaseManager observer = manager(SHORT);

    long start = System.nanoTime();
    try {
      observer.acquire(key, SHORT.ttl().multipliedBy(2));
      fail("a holder with a 6 s TTL was taken over by an observer with a 2 s TTL");
    } catch (LeaseHeld held) {
      assertThat(held.ttl()).as("the TTL the observer waits for").isEqualTo(holderTtl.ttl());
    }
    Lease lease = observer.acquire(key, PATIENCE);
    Duration waited = Duration.ofNanos(System.nanoTime() - start);
    child.resume();

    assertThat(waited).as("how long the takeover waited").isGreaterThanOrEqualTo(holderTtl.ttl());
    assertThat(lease.generation()).isGreaterThan(childGeneration);
    assertThat(child.awaitLine("LOST ", PATIENCE)).matches("LOST (EXPIRED|TAKEN_OVER)");
    assertThat(child.awaitExit(PATIENCE)).isEqualTo(LeaseHolderMain.EXIT_LOST);
  }

  /**
   * Two processes racing for one free key: exactly one acquires it, the other is told who holds it.
   *
   * @throws Exception if the test fails
   */
  @Test
  public void onlyOneOfTwoRacingProcessesAcquires() throws Exception {
    ChildJvm first = startHolder(LONG, null, true);
    ChildJvm second = startHolder(LONG, null, true);
    first.awaitLine("READY ", PATIENCE);
    second.awaitLine("READY ", PATIENCE);

    first.send("GO");
    second.send("GO");
    String firstSays = outcome(first);
    String secondSays = outcome(second);

    assertThat(List.of(firstSays, secondSays))
        .as("what the two racing processes report")
        .filteredOn(line -> line.startsWith("ACQUIRED "))
        .hasSize(1);
    boolean firstWon = firstSays.startsWith("ACQUIRED ");
    ChildJvm winner = firstWon ? first : second;
    ChildJvm loser = firstWon ? second : first;
    String held = firstWon ? secondSays : firstSays;
    long generation = number(firstWon ? firstSays : secondSays, 1);
    assertThat(held).as("the loser's report").isEqualTo("HELD " + generation + " " + winner.pid());
    assertThat(loser.awaitExit(PATIENCE)).isEqualTo(LeaseHolderMain.EXIT_HELD);
    LeaseSnapshot stored = parentRepository().load(key).orElseThrow();
    assertThat(stored.generation()).isEqualTo(generation);
    assertThat(stored.state()).isEqualTo(LeaseState.HELD);
    assertThat(stored.holder().process().pid()).isEqualTo(winner.pid());

    winner.send("EXIT");
    winner.awaitLine("RELEASED", PATIENCE);
    assertThat(winner.awaitExit(PATIENCE)).isEqualTo(LeaseHolderMain.EXIT_RELEASED);
    assertThat(parentRepository().load(key).orElseThrow())
        .as("the record after the winner released")
        .extracting(LeaseSnapshot::state, LeaseSnapshot::generation)
        .containsExactly(LeaseState.RELEASED, generation);
  }

  private String outcome(ChildJvm child) throws InterruptedException {
    return child.awaitLine(
        "ACQUIRED or HELD", l -> l.startsWith("ACQUIRED ") || l.startsWith("HELD "), PATIENCE);
  }

  private ChildJvm startHolder(
      LeaseConfig config, @Nullable Path journal, boolean awaitGo, String... more) {
    List<String> args =
        new ArrayList<>(
            HolderOptions.format(
                repositoryFactory(), spec(), key, config.ttl(), config.heartbeat()));
    if (journal != null) {
      args.add("--journal=" + journal);
    }
    if (awaitGo) {
      args.add("--await-go");
    }
    args.addAll(List.of(more));
    ChildJvm child = ChildJvm.start(LeaseHolderMain.class, args);
    resources.add(child);
    return child;
  }

  private LeaseManager manager(LeaseConfig config) {
    LeaseManager manager =
        LeaseManager.builder(parentRepository())
            .ttl(config.ttl())
            .heartbeat(config.heartbeat())
            .build();
    resources.add(manager);
    return manager;
  }

  private static void appendFenced(Lease lease, Path journal) throws Exception {
    lease.runFenced(
        token -> {
          Journal.append(journal, token.generation());
          return token.generation();
        });
  }

  /** Every write went through the key lock, so generations in the journal never go back. */
  private static void assertJournalMonotonic(Path journal, long old, long current)
      throws IOException {
    List<Long> generations = Journal.generations(journal);
    assertThat(generations)
        .as("generations in the journal, in the order written")
        .isSortedAccordingTo(Comparator.naturalOrder())
        .contains(old, current)
        .containsOnly(old, current);
    assertThat(generations.lastIndexOf(old))
        .as("last write of generation %d comes before the first of %d", old, current)
        .isLessThan(generations.indexOf(current));
  }

  private static long number(String line, int field) {
    String[] parts = line.split(" ");
    if (parts.length <= field) {
      return fail("no field " + field + " in '" + line + "'");
    }
    return Long.parseLong(parts[field]);
  }

  private Path scratch() {
    return requireSet(scratch, "scratch directory");
  }

  private String spec() {
    return requireSet(spec, "storage spec");
  }

  private LeaseRepository parentRepository() {
    return requireSet(parentRepository, "parent repository");
  }

  private static <T> T requireSet(@Nullable T value, String what) {
    if (value == null) {
      throw new IllegalStateException("no " + what + ": the test was not prepared");
    }
    return value;
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
