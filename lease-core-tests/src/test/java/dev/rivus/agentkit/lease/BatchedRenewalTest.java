/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One renewer per manager renews every lease it holds in one batch per heartbeat; each lease keeps
 * its own revision and its own expiry, and a conflict or a failure on one affects that one alone.
 */
class BatchedRenewalTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final CountingRepository repository = new CountingRepository(store);
  private final FakePlatform platform = Samples.platformOf(100);
  private final LeaseManager manager = platform.newManager(repository, TTL, HEARTBEAT);

  @AfterEach
  void close() {
    manager.close();
  }

  @Test
  void leasesAcquiredAtDifferentTimesAreRenewedTogetherInOneBatchPerHeartbeat() {
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      leases.add(manager.acquire("task-" + i));
      if (i % 10 == 9) {
        platform.advance(Duration.ofMillis(300)); // acquired over 1.5 s, less than a heartbeat
      }
    }
    assertThat(platform.pendingTimers()).as("timers for 50 leases").isOne();
    repository.batches.clear();
    repository.singleSaves.clear();

    for (int beat = 0; beat < 5; beat++) {
      platform.advance(HEARTBEAT);
    }

    assertThat(repository.singleSaves).as("renewals saved one by one").isEmpty();
    assertThat(repository.batches).as("batches in five heartbeats").hasSizeBetween(5, 6);
    assertThat(repository.batches.subList(1, repository.batches.size()))
        .as("sizes of the batches after the first")
        .containsOnly(50);
    for (Lease lease : leases) {
      LeaseSnapshot stored = store.load(lease.key()).orElseThrow();
      assertThat(stored.revision()).as("revision of %s", lease.key()).isGreaterThanOrEqualTo(5);
      assertThat(stored.generation()).isEqualTo(lease.generation());
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void aBatchComesInTheOrderOfItsKeysWhateverTheOrderOfAcquisition() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      keys.add("job/" + ((i * 17) % 40)); // job/0, job/17, job/34, job/11, ...
    }
    for (String key : keys) {
      manager.acquire(key);
    }
    repository.batchKeys.clear();

    platform.advance(HEARTBEAT);

    assertThat(repository.batchKeys).isNotEmpty();
    for (List<String> batch : repository.batchKeys) {
      assertThat(batch).isSorted();
    }
    assertThat(repository.batchKeys.get(0)).containsExactlyInAnyOrderElementsOf(keys);
  }

  /**
   * The tick that expires one lease visits the leases in key order; a lease acquired meanwhile
   * under a key it has passed (here from the expired lease's {@code lost()} stage, which completes
   * inside that tick) must still get its tick, and so its renewals and its expiry.
   */
  @Test
  void aLeaseAcquiredWhileATickExpiresAnotherStillGetsItsTicks() {
    repository.failingKeys.add("b");
    Lease expiring = manager.acquire("b");
    AtomicReference<Lease> acquiredMeanwhile = new AtomicReference<>();
    expiring.lost().thenRun(() -> acquiredMeanwhile.set(manager.acquire("a")));

    platform.advance(TTL);

    assertThat(expiring.isHeld()).isFalse();
    Lease a = acquiredMeanwhile.get();
    assertThat(a).as("acquired in the expiring tick").isNotNull();
    long revision = store.load("a").orElseThrow().revision();
    platform.advance(HEARTBEAT.multipliedBy(3));
    assertThat(store.load("a").orElseThrow().revision())
        .as("revision of 'a' after three heartbeats")
        .isGreaterThan(revision);
    assertThat(a.isHeld()).isTrue();

    repository.failingKeys.add("a");
    platform.advance(TTL);
    assertThat(a.isHeld()).as("'a' expires on its own clock").isFalse();
  }

  @Test
  void aConflictOnOneLeaseLosesThatLeaseAlone() {
    Lease taken = manager.acquire("taken");
    Lease kept = manager.acquire("kept");
    LeaseSnapshot mine = store.load("taken").orElseThrow();
    store.save(
        mine.acquisition(new HolderIdentity(Samples.sibling(300), "thief"), TTL, platform.now()));

    platform.advance(HEARTBEAT);

    assertThat(taken.isHeld()).isFalse();
    assertThat(taken.lost().toCompletableFuture().join().reason())
        .isEqualTo(LeaseLost.Reason.TAKEN_OVER);
    assertThat(kept.isHeld()).isTrue();
    platform.advance(TTL.multipliedBy(2));
    assertThat(kept.isHeld()).isTrue();
  }

  @Test
  void aLeaseWhoseWritesFailExpiresOnItsOwnClockWhileTheOthersAreRenewed() {
    Lease failing = manager.acquire("failing");
    Lease healthy = manager.acquire("healthy");
    platform.advance(HEARTBEAT); // the last good renewal of both starts here
    repository.failingKeys.add("failing");
    Duration margin = TTL.dividedBy(10);

    platform.advance(TTL.minus(margin).minusMillis(1));
    assertThat(failing.isHeld()).as("just before its TTL").isTrue();
    platform.advance(Duration.ofMillis(1));

    assertThat(failing.isHeld()).as("at its TTL less the safety margin").isFalse();
    assertThat(failing.lost().toCompletableFuture().join().reason())
        .isEqualTo(LeaseLost.Reason.EXPIRED);
    assertThat(healthy.isHeld()).isTrue();
    long revision = store.load("healthy").orElseThrow().revision();
    platform.advance(HEARTBEAT);
    assertThat(store.load("healthy").orElseThrow().revision()).isGreaterThan(revision);
  }

  @Test
  void aLeaseWhoseRecordVanishedIsLostWithItsStore() {
    Lease lease = manager.acquire("vanishing");
    repository.vanishedKeys.add("vanishing");

    platform.advance(HEARTBEAT);

    assertThat(lease.isHeld()).isFalse();
    assertThat(lease.lost().toCompletableFuture().join().reason())
        .isEqualTo(LeaseLost.Reason.STORE_LOST);
  }

  @Test
  void aStoreLostInARoundLosesEveryLeaseAtOnce() {
    Lease first = manager.acquire("first");
    Lease second = manager.acquire("second");
    repository.storeGone = true;

    platform.advance(HEARTBEAT);

    for (Lease lease : List.of(first, second)) {
      assertThat(lease.isHeld()).isFalse();
      LeaseLost lost = lease.lost().toCompletableFuture().join();
      assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.STORE_LOST);
      assertThat(lost).hasMessageContaining("the store was deleted (test)");
    }
  }

  @Test
  void anAcquisitionThatFindsTheStoreLostLosesEveryLeaseOfTheManagerAtOnce() {
    Lease held = manager.acquire("held");
    repository.storeGone = true;

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> manager.acquire("another"))
        .isInstanceOf(StoreLost.class);

    assertThat(held.isHeld()).isFalse();
    assertThat(held.lost().toCompletableFuture().join().reason())
        .isEqualTo(LeaseLost.Reason.STORE_LOST);
  }

  /** Counts batches and single saves, and fails or hides chosen keys. */
  private static final class CountingRepository extends ForwardingLeaseRepository {
    final List<Integer> batches = new CopyOnWriteArrayList<>();
    final List<String> singleSaves = new CopyOnWriteArrayList<>();
    final List<List<String>> batchKeys = new CopyOnWriteArrayList<>();
    final Set<String> failingKeys = ConcurrentHashMap.newKeySet();
    final Set<String> vanishedKeys = ConcurrentHashMap.newKeySet();
    volatile boolean storeGone;

    CountingRepository(LeaseRepository delegate) {
      super(delegate);
    }

    @Override
    public java.util.Optional<LeaseSnapshot> load(String key) {
      requireStore();
      return vanishedKeys.contains(key) ? java.util.Optional.empty() : super.load(key);
    }

    @Override
    public void save(LeaseWrite write) {
      requireStore();
      singleSaves.add(write.key());
      super.save(write);
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      requireStore();
      batches.add(writes.size());
      batchKeys.add(writes.stream().map(LeaseWrite::key).toList());
      List<SaveOutcome> outcomes = new ArrayList<>();
      for (LeaseWrite write : writes) {
        if (failingKeys.contains(write.key())) {
          outcomes.add(
              SaveOutcome.failed(
                  write, new LeaseRepositoryFailure(write.key(), "disk full (test)", null)));
        } else if (vanishedKeys.contains(write.key())) {
          outcomes.add(SaveOutcome.failed(write, new RevisionConflict(write.key(), 0, 0)));
        } else {
          try {
            super.save(write);
            outcomes.add(SaveOutcome.saved(write));
          } catch (RevisionConflict conflict) {
            outcomes.add(SaveOutcome.failed(write, conflict));
          }
        }
      }
      return outcomes;
    }

    private void requireStore() {
      if (storeGone) {
        throw new StoreLost("the store was deleted (test)", null);
      }
    }
  }
}
