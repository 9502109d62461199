/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A random walk of lease operations by several simulated processes on one repository, on fake time:
 * acquisitions (fast and blocking), time passing, releases, fenced work, processes freezing (as
 * under SIGSTOP) and crashing. After every step it checks that generations never went back and that
 * the record names the newest acquisition; fenced work must run only for the newest holder.
 *
 * <p>Each simulated process has its own {@link FakePlatform} (own clock, own view of which
 * processes run), on one shared host. Freezing a process stops its clock, so it neither renews nor
 * notices anything, while the others go on.
 */
final class GenerationWalk {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);
  private static final int PROCESSES = 3;

  private final LeaseRepository repository;
  private final List<String> keys;
  private final Random random;
  private final long seed;
  private final List<String> log = new ArrayList<>();
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, Lease> newest = new HashMap<>();
  private final Map<String, Long> highestStored = new HashMap<>();
  private final Map<String, Integer> counts = new TreeMap<>();
  private long nextPid = 100;

  GenerationWalk(LeaseRepository repository, long seed) {
    this.repository = repository;
    this.keys = List.of("walk-" + seed + "/a", "walk-" + seed + "/b");
    this.seed = seed;
    this.random = new Random(seed);
  }

  /** Runs {@code steps} random operations, checking the invariants after each. */
  void run(int steps) throws InterruptedException {
    try {
      for (int i = 0; i < PROCESSES; i++) {
        nodes.add(startNode());
      }
      for (int step = 0; step < steps; step++) {
        step();
        checkRecords();
      }
      for (Node node : nodes) {
        node.manager.close();
      }
      log.add("closed every manager");
      checkRecords();
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "generation walk with seed " + seed + " failed after:\n" + String.join("\n", log), e);
    }
  }

  private void step() throws InterruptedException {
    int dice = random.nextInt(100);
    Node node = nodes.get(random.nextInt(nodes.size()));
    if (dice < 20) {
      acquire(node, Duration.ZERO);
    } else if (dice < 32) {
      acquire(node, Duration.ofMillis(random.nextInt(15_000)));
    } else if (dice < 55) {
      Duration step = Duration.ofMillis(random.nextInt(6_000));
      log.add("time passes " + step + " for every running process");
      nodes.stream().filter(n -> !n.frozen).forEach(n -> n.platform.advance(step));
    } else if (dice < 65) {
      release();
    } else if (dice < 85) {
      runFenced();
    } else if (dice < 95) {
      node.frozen = !node.frozen;
      log.add(node + (node.frozen ? " freezes" : " thaws"));
      count("freezes and thaws");
      if (!node.frozen) {
        resumeWork(node);
      }
    } else if (dice < 98 || !(repository instanceof PrunableLeaseRepository)) {
      crash(node);
    } else {
      int pruned = ((PrunableLeaseRepository) repository).prune(Duration.ZERO);
      log.add("every tombstone is pruned: " + pruned);
      count("prunes");
    }
  }

  private void acquire(Node node, Duration maxWait) throws InterruptedException {
    if (node.frozen) {
      return;
    }
    String key = keys.get(random.nextInt(keys.size()));
    Optional<LeaseSnapshot> stored = repository.load(key);
    // An acquisition takes the wall clock in microseconds, or one above the stored generation if
    // that is higher (SPEC 1); a wait moves the clock on, so then it may be higher still.
    long clock = LeaseSnapshot.firstGeneration(node.platform.now());
    long next = stored.map(snapshot -> Math.max(snapshot.generation() + 1, clock)).orElse(clock);
    try {
      Lease lease =
          maxWait.isZero() ? node.manager.acquire(key) : node.manager.acquire(key, maxWait);
      log.add(node + " acquires " + key + " within " + maxWait + ": " + lease.generation());
      assertThat(lease.generation())
          .as("generation of a new acquisition of %s: the clock or one above the stored one", key)
          .isGreaterThan(newestOf(key));
      if (maxWait.isZero()) {
        assertThat(lease.generation()).as("generation of %s without a wait", key).isEqualTo(next);
      } else {
        assertThat(lease.generation())
            .as("generation of %s after a wait", key)
            .isGreaterThanOrEqualTo(next);
      }
      node.leases.add(lease);
      newest.put(key, lease);
      count(stored.isPresent() && stored.get().isHeld() ? "takeovers" : "free acquisitions");
    } catch (LeaseHeld held) {
      log.add(node + " finds " + key + " held at generation " + held.generation());
      count("held");
      assertThat(held.generation())
          .as("generation reported by LeaseHeld")
          .isGreaterThanOrEqualTo(stored.map(LeaseSnapshot::generation).orElse(0L));
    }
  }

  private void release() {
    Optional<Handle> pick = pick();
    if (pick.isEmpty()) {
      return;
    }
    Lease lease = pick.get().lease();
    log.add(pick.get().node() + " closes " + lease);
    lease.close();
    count("releases");
    assertThat(lease.isHeld()).as("a closed lease is held").isFalse();
  }

  /** A thawed process resumes its fenced work at once, before its timers have fired (SIGCONT). */
  private void resumeWork(Node node) throws InterruptedException {
    List<Lease> held = node.leases.stream().filter(Lease::isHeld).collect(Collectors.toList());
    if (!held.isEmpty()) {
      runFenced(new Handle(node, held.get(random.nextInt(held.size()))));
    }
  }

  private void runFenced() throws InterruptedException {
    Optional<Handle> pick = pick();
    if (pick.isPresent()) {
      runFenced(pick.get());
    }
  }

  private void runFenced(Handle handle) throws InterruptedException {
    Node node = handle.node();
    Lease lease = handle.lease();
    boolean believedHeld = lease.isHeld();
    try {
      long ran =
          lease.runFenced(
              token -> {
                LeaseSnapshot stored = repository.load(token.key()).orElseThrow();
                assertThat(stored.generation())
                    .as("stored generation while fenced work of %d runs", token.generation())
                    .isEqualTo(token.generation());
                assertThat(stored.holder()).isEqualTo(lease.holder());
                assertThat(stored.isHeld()).as("stored record is held").isTrue();
                return token.generation();
              });
      log.add(node + " ran fenced work with " + lease);
      count("fenced runs");
      assertThat(ran)
          .as("fenced work ran for the newest holder only")
          .isEqualTo(newestOf(lease.key()));
    } catch (LeaseLost lost) {
      log.add(node + " was refused fenced work with " + lease + ": " + lost.reason());
      count(believedHeld ? "stale holder refused" : "lost handle refused");
      Optional<LeaseSnapshot> stored = repository.load(lease.key());
      boolean recordIsOwn =
          stored.isPresent()
              && stored.get().isHeld()
              && stored.get().generation() == lease.generation()
              && stored.get().holder().equals(lease.holder());
      assertThat(!believedHeld || !recordIsOwn)
          .as("fenced work refused although the handle held its record (%s)", lost.getMessage())
          .isTrue();
    }
  }

  /**
   * A lease of a running process: mostly one it believes held, preferring a stale one (taken over
   * behind its back) when there is one, sometimes one it knows it lost.
   */
  private Optional<Handle> pick() {
    boolean wantHeld = random.nextInt(5) > 0;
    List<Handle> candidates = new ArrayList<>();
    List<Handle> stale = new ArrayList<>();
    for (Node node : nodes) {
      for (Lease lease : node.leases) {
        if (!node.frozen && lease.isHeld() == wantHeld) {
          candidates.add(new Handle(node, lease));
          if (wantHeld && newest.get(lease.key()) != lease) {
            stale.add(new Handle(node, lease));
          }
        }
      }
    }
    List<Handle> from = stale.isEmpty() || random.nextBoolean() ? candidates : stale;
    return from.isEmpty() ? Optional.empty() : Optional.of(from.get(random.nextInt(from.size())));
  }

  private record Handle(Node node, Lease lease) {}

  private void crash(Node node) {
    log.add(node + " crashes (kill -9)");
    count("crashes");
    nodes.remove(node);
    for (Node other : nodes) {
      other.platform.kill(node.self);
    }
    nodes.add(startNode());
  }

  /**
   * After every step: generations only rise, and a record shows the newest acquisition (a floor
   * left by pruning may stand higher).
   */
  private void checkRecords() {
    for (String key : keys) {
      Optional<LeaseSnapshot> stored = repository.load(key);
      long generation = stored.map(LeaseSnapshot::generation).orElse(0L);
      assertThat(generation)
          .as("stored generation of %s never goes back", key)
          .isGreaterThanOrEqualTo(highestStored.getOrDefault(key, 0L))
          .isGreaterThanOrEqualTo(newestOf(key));
      highestStored.put(key, generation);
      if (stored.isPresent() && !stored.get().isFloor()) {
        assertThat(generation).as("generation of the record of %s", key).isEqualTo(newestOf(key));
      }
      if (stored.isPresent() && stored.get().isHeld()) {
        Lease acquired = newest.get(key);
        assertThat(stored.get().holder())
            .as("holder named by the held record of %s", key)
            .isEqualTo(acquired == null ? null : acquired.holder());
      }
    }
  }

  /** How often each kind of event happened, to check that a walk covers the interesting cases. */
  Map<String, Integer> counts() {
    return Map.copyOf(counts);
  }

  private void count(String event) {
    counts.merge(event, 1, Integer::sum);
  }

  private long newestOf(String key) {
    Lease lease = newest.get(key);
    return lease == null ? 0 : lease.generation();
  }

  private Node startNode() {
    long pid = nextPid++;
    ProcessIdentity self =
        new ProcessIdentity("walk-host", "walk-boot", "pid:[walk]", pid, "ticks:" + pid);
    FakePlatform platform = new FakePlatform(self);
    for (Node other : nodes) {
      platform.markRunning(other.self);
      other.platform.markRunning(self);
    }
    Node node = new Node(self, platform, platform.newManager(repository, TTL, HEARTBEAT));
    log.add("start " + node);
    return node;
  }

  @Override
  public String toString() {
    return "GenerationWalk[seed "
        + seed
        + ", running "
        + nodes.stream().map(Node::toString).collect(Collectors.joining(", "))
        + "]";
  }

  /** One simulated process: its platform, its manager, the leases it acquired. */
  private static final class Node {
    final ProcessIdentity self;
    final FakePlatform platform;
    final LeaseManager manager;
    final List<Lease> leases = new ArrayList<>();
    boolean frozen;

    Node(ProcessIdentity self, FakePlatform platform, LeaseManager manager) {
      this.self = self;
      this.platform = platform;
      this.manager = manager;
    }

    @Override
    public String toString() {
      return "process " + self.pid() + (frozen ? " (frozen)" : "");
    }
  }
}
