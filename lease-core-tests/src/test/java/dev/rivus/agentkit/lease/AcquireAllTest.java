/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaseManager#acquireAll}: every key judged as {@code acquire} judges it, in one read and
 * one write; races re-judged; a failure of the whole batch leaves nothing held.
 */
class AcquireAllTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FakePlatform holderPlatform = Samples.platformOf(100);
  private final FakePlatform platform = Samples.platformOf(200);
  private final List<List<LeaseWrite>> batches = new ArrayList<>();
  private final AtomicInteger loads = new AtomicInteger();
  private final AtomicInteger batchLoads = new AtomicInteger();

  /** Runs before the delegate saves the n-th batch of acquisitions (0-based), if set. */
  private final List<Consumer<List<LeaseWrite>>> beforeBatch = new ArrayList<>();

  private final LeaseRepository counting =
      new ForwardingLeaseRepository(store) {
        @Override
        public Optional<LeaseSnapshot> load(String key) {
          loads.incrementAndGet();
          return super.load(key);
        }

        @Override
        public Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
          batchLoads.incrementAndGet();
          return super.loadAll(keys);
        }

        @Override
        public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
          if (writes.stream().allMatch(LeaseWrite::raisesGeneration)) {
            int n = batches.size();
            batches.add(writes);
            if (n < beforeBatch.size()) {
              beforeBatch.get(n).accept(writes);
            }
          }
          return super.saveAll(writes);
        }
      };

  private final LeaseManager holder = holderPlatform.newManager(store, TTL, HEARTBEAT);
  private final LeaseManager manager = platform.newManager(counting, TTL, HEARTBEAT);

  @AfterEach
  void closeManagers() {
    manager.close();
    holder.close();
  }

  @Test
  void keysHeldByAnotherLiveHolderAreToldWithTheirHolderAndTheOthersAreAcquiredInOneBatch() {
    platform.markRunning(holderPlatform.currentProcess());
    Lease theirs = holder.acquire("b");
    try (LeaseManager released = holderPlatform.newManager(store, TTL, HEARTBEAT)) {
      released.acquire("c").close(); // a tombstone
    }

    Acquisitions got = manager.acquireAll(List.of("a", "b", "c", "d"));

    assertThat(got.acquired()).extracting(Lease::key).containsExactly("a", "c", "d");
    assertThat(got.acquired()).allMatch(Lease::isHeld);
    assertThat(got.held()).containsOnlyKeys("b");
    assertThat(got.held().get("b").holder()).isEqualTo(theirs.holder());
    assertThat(got.held().get("b").generation()).isEqualTo(theirs.generation());
    assertThat(got.failed()).isEmpty();
    assertThat(got.acquiredAll()).isFalse();
    assertThat(batches).as("one write of the three acquisitions").hasSize(1);
    assertThat(batches.get(0)).hasSize(3);
    assertThat(batchLoads.get()).as("one read").isEqualTo(1);
    assertThat(loads.get()).as("no read of one key").isZero();
    for (Lease lease : got.acquired()) {
      assertThat(store.load(lease.key()).orElseThrow().holder()).isEqualTo(lease.holder());
    }
    assertThat(theirs.isHeld()).isTrue();
  }

  @Test
  void theLeasesAcquiredAreRenewedWithTheOthers() {
    Acquisitions got = manager.acquireAll(List.of("x", "y"));
    long revision = store.load("x").orElseThrow().revision();

    platform.advance(TTL.multipliedBy(3));

    assertThat(got.acquired()).allMatch(Lease::isHeld);
    assertThat(store.load("x").orElseThrow().revision()).isGreaterThan(revision);
    assertThat(store.load("y").orElseThrow().isHeld()).isTrue();
  }

  @Test
  void aKeyAnotherWriterMovedBetweenTheReadAndTheWriteIsReadAndJudgedAgain() {
    platform.markRunning(holderPlatform.currentProcess());
    List<Lease> theirs = new ArrayList<>();
    beforeBatch.add(
        writes -> {
          holder.acquire("moved").close(); // released meanwhile: a newer tombstone
          theirs.add(holder.acquire("taken")); // taken meanwhile by a live holder
        });

    Acquisitions got = manager.acquireAll(List.of("free", "moved", "taken"));

    assertThat(batches).as("a second write for the keys that lost the race").hasSize(2);
    assertThat(batches.get(1)).extracting(LeaseWrite::key).containsExactly("moved");
    assertThat(got.acquired()).extracting(Lease::key).containsExactly("free", "moved");
    assertThat(got.held()).containsOnlyKeys("taken");
    assertThat(got.held().get("taken").holder()).isEqualTo(theirs.get(0).holder());
    assertThat(store.load("moved").orElseThrow().holder())
        .isEqualTo(got.acquired().get(1).holder());
  }

  @Test
  void aStoreFailureOfTheBatchLeavesNothingHeldAndReleasesWhatLanded() {
    LeaseRepository answerLost =
        new ForwardingLeaseRepository(store) {
          private boolean failed;

          @Override
          public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
            List<SaveOutcome> outcomes = super.saveAll(writes);
            if (!failed && writes.stream().anyMatch(LeaseWrite::raisesGeneration)) {
              failed = true;
              throw new LeaseRepositoryFailure(null, "the answer was lost", null);
            }
            return outcomes;
          }
        };
    try (LeaseManager failing = platform.newManager(answerLost, TTL, HEARTBEAT)) {

      assertThatThrownBy(() -> failing.acquireAll(List.of("p", "q")))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("the answer was lost");

      for (String key : List.of("p", "q")) {
        assertThat(store.load(key).orElseThrow().state())
            .as("the record of %s, written, then released", key)
            .isEqualTo(LeaseState.RELEASED);
      }
      assertThat(failing.toString()).contains("0 held");
    }
  }

  @Test
  void aFailureInALaterRoundGivesBackWhatEarlierRoundsAcquired() {
    beforeBatch.add(writes -> holder.acquire("raced").close());
    beforeBatch.add(
        writes -> {
          throw new LeaseRepositoryFailure(null, "the store went away", null);
        });

    assertThatThrownBy(() -> manager.acquireAll(List.of("early", "raced")))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("the store went away");

    assertThat(store.load("early").orElseThrow().state())
        .as("acquired in the first round, released when the second failed")
        .isEqualTo(LeaseState.RELEASED);
    assertThat(store.load("raced").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
    assertThat(manager.toString()).contains("0 held");
  }

  @Test
  void aBatchWhoseWriteTookMostOfTheTtlIsReleasedAndReported() {
    beforeBatch.add(writes -> platform.advance(TTL.multipliedBy(8).dividedBy(10)));

    assertThatThrownBy(() -> manager.acquireAll(List.of("s1", "s2")))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("acquiring 2 leases took 8.000 s of their 10.000 s TTL");

    assertThat(store.load("s1").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
    assertThat(store.load("s2").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
    assertThat(manager.toString()).contains("0 held");
  }

  @Test
  void aKeyAskedForTwiceIsRefusedBeforeAnythingIsWritten() {
    assertThatThrownBy(() -> manager.acquireAll(List.of("k", "l", "k")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'k' is asked for twice");
    assertThatThrownBy(() -> manager.acquireAll(List.of("k", "")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.loadAll()).isEmpty();
  }

  @Test
  void aKeyReleasedByThisManagerIsAcquiredAgainWithoutARead() {
    manager.acquire("again").close();
    batchLoads.set(0);
    loads.set(0);

    Acquisitions got = manager.acquireAll(List.of("again"));

    assertThat(got.acquired()).hasSize(1);
    assertThat(batchLoads.get() + loads.get()).as("reads").isZero();
  }

  @Test
  void nothingAskedForIsNothingGot() {
    Acquisitions got = manager.acquireAll(List.of());
    assertThat(got.acquired()).isEmpty();
    assertThat(got.acquiredAll()).isTrue();
    assertThat(batches).isEmpty();
  }
}
