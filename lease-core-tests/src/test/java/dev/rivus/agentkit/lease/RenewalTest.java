/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The heartbeat: renewals, retries, and loss when the repository stays out of reach. */
class RenewalTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FlakyRepository repository = new FlakyRepository(store);
  private final FakePlatform platform = Samples.platformOf(100);
  private final LeaseManager manager = platform.newManager(repository, TTL, HEARTBEAT);

  @AfterEach
  void close() {
    repository.recover();
    repository.unhang();
    manager.close();
  }

  @Test
  void everyHeartbeatWritesANewRevisionWithTheSameGeneration() {
    try (Lease lease = manager.acquire("task")) {
      long revision = store.load("task").orElseThrow().revision();

      platform.advance(HEARTBEAT);
      platform.advance(HEARTBEAT);

      LeaseSnapshot renewed = store.load("task").orElseThrow();
      assertThat(renewed.revision()).isEqualTo(revision + 2);
      assertThat(renewed.generation()).isEqualTo(lease.generation());
      assertThat(renewed.isHeld()).isTrue();
    }
  }

  @Test
  void aHolderThatCannotReachItsRepositoryLosesTheLeaseJustBeforeTheTtlSinceItsLastGoodRenewal() {
    Lease lease = manager.acquire("task");
    platform.advance(HEARTBEAT); // last successful renewal starts here
    repository.startFailing();
    Duration safetyMargin = TTL.dividedBy(10); // a tenth of the TTL, at most one second

    platform.advance(TTL.minus(safetyMargin).minusMillis(1));
    assertThat(lease.isHeld()).isTrue();

    platform.advance(Duration.ofMillis(1));
    assertThat(lease.isHeld()).isFalse();
    LeaseLost lost = lease.lost().toCompletableFuture().join();
    assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
    assertThat(lost.getCause()).isInstanceOf(LeaseRepositoryFailure.class);
    assertThat(lost.generation()).isEqualTo(lease.generation());
  }

  @Test
  void transientFailuresAreRetriedWithinTheTtlAndTheLeaseIsKept() {
    try (Lease lease = manager.acquire("task")) {
      platform.advance(HEARTBEAT);
      repository.startFailing();
      platform.advance(TTL.minus(HEARTBEAT)); // several failed attempts
      repository.recover();
      long before = store.load("task").orElseThrow().revision();

      platform.advance(HEARTBEAT); // a retry falls due within this step and succeeds

      assertThat(lease.isHeld()).isTrue();
      assertThat(store.load("task").orElseThrow().revision()).isGreaterThan(before);
      platform.advance(TTL.multipliedBy(3));
      assertThat(lease.isHeld()).isTrue();
    }
  }

  /** An operator's {@code lease release --generation N} is said as such, not as a takeover. */
  @Test
  void aRenewalThatFindsItsOwnRecordReleasedByAnotherLosesTheLeaseAsForcedRelease() {
    Lease lease = manager.acquire("task");
    LeaseSnapshot mine = store.load("task").orElseThrow();
    store.save(mine.release(platform.now())); // as the operator's forced release writes it

    platform.advance(HEARTBEAT);

    assertThat(lease.isHeld()).isFalse();
    LeaseLost lost = lease.lost().toCompletableFuture().join();
    assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.FORCED_RELEASE);
    assertThat(lost)
        .hasMessageContaining("generation " + mine.generation() + " was released by an operator")
        .hasMessageNotContaining("taken over");
  }

  /** Fenced work re-reads the record first: a forced release found there is said the same way. */
  @Test
  void fencedWorkThatFindsItsOwnRecordReleasedByAnotherLosesTheLeaseAsForcedRelease() {
    Lease lease = manager.acquire("task");
    LeaseSnapshot mine = store.load("task").orElseThrow();
    store.save(mine.release(platform.now()));

    assertThatThrownBy(() -> lease.runFenced(token -> "ran"))
        .isInstanceOfSatisfying(
            LeaseLost.class,
            lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.FORCED_RELEASE))
        .hasMessageContaining("was released by an operator");
    assertThat(lease.isHeld()).isFalse();
  }

  @Test
  void aRenewalThatFindsAnotherHolderLosesTheLeaseAsTakenOver() {
    Lease lease = manager.acquire("task");
    LeaseSnapshot mine = store.load("task").orElseThrow();
    HolderIdentity thief = new HolderIdentity(Samples.sibling(300), "thief-1");
    store.save(mine.acquisition(thief, TTL, platform.now()));

    platform.advance(HEARTBEAT);

    assertThat(lease.isHeld()).isFalse();
    LeaseLost lost = lease.lost().toCompletableFuture().join();
    assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.TAKEN_OVER);
    assertThat(lost.current()).hasValueSatisfying(s -> assertThat(s.holder()).isEqualTo(thief));
    assertThat(lost)
        .hasMessageContaining("the record now shows generation " + (mine.generation() + 1));
    lease.close();
    assertThat(store.load("task").orElseThrow().holder()).isEqualTo(thief); // not released by us
  }

  @Test
  void closingAnExpiredLeaseReleasesItIfTheRecordIsStillOurs() {
    Lease lease = manager.acquire("task");
    repository.startFailing();
    platform.advance(TTL);
    assertThat(lease.isHeld()).isFalse();
    repository.recover();

    lease.close();

    LeaseSnapshot stored = store.load("task").orElseThrow();
    assertThat(stored.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(stored.generation()).isEqualTo(lease.generation());
  }

  @Test
  void aRepositoryCallThatHangsCannotKeepALeaseAlivePastItsTtl() {
    FlakyRepository hanging = new FlakyRepository(new MemoryLeaseRepository());
    try (LeaseManager real =
        LeaseManager.builder(hanging)
            .ttl(Duration.ofSeconds(1))
            .heartbeat(Duration.ofMillis(100))
            .build()) {
      Lease lease = real.acquire("task");
      CompletableFuture<LeaseLost> lost = lease.lost().toCompletableFuture();
      hanging.hang();

      await().atMost(Duration.ofSeconds(10)).until(lost::isDone);

      assertThat(lost.join().reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
      assertThat(lease.isHeld()).isFalse();
      hanging.unhang();
    }
  }

  @Test
  void aLeaseAcquiredWhileARenewalRoundHangsStillExpiresOnTime() throws Exception {
    FlakyRepository hanging = new FlakyRepository(new MemoryLeaseRepository());
    try (LeaseManager real =
        LeaseManager.builder(hanging)
            .ttl(Duration.ofSeconds(1))
            .heartbeat(Duration.ofMillis(100))
            .build()) {
      Lease first = real.acquire("first");
      hanging.hangBatches();
      await().atMost(Duration.ofSeconds(10)).until(() -> !first.isHeld()); // its round hangs

      Lease second = real.acquire("second"); // single saves still work
      CompletableFuture<LeaseLost> lost = second.lost().toCompletableFuture();

      await().atMost(Duration.ofSeconds(10)).until(lost::isDone);
      assertThat(lost.join().reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
      hanging.unhangBatches();
    }
  }

  @Test
  void aRecordThatWentBackToAnOlderRevisionOfItsOwnIsGivenUpNotWrittenAgain() {
    // A store that lost confirmed writes: a database that crashed before flushing renewals it had
    // committed without waiting, or a restored backup. An observer may have seen the newer
    // revision; if the holder adopted the old one and renewed, it would write that revision's
    // number again, and the observer would take it for "unchanged".
    AtomicReference<LeaseRepository> current = new AtomicReference<>(store);
    LeaseRepository switchable =
        new ForwardingLeaseRepository(store) {
          @Override
          public Optional<LeaseSnapshot> load(String key) {
            return current.get().load(key);
          }

          @Override
          public void save(LeaseWrite write) {
            current.get().save(write);
          }

          @Override
          public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
            return current.get().saveAll(writes);
          }
        };
    try (LeaseManager rolledBack = platform.newManager(switchable, TTL, HEARTBEAT)) {
      Lease lease = rolledBack.acquire("task");
      LeaseSnapshot backedUp = store.load("task").orElseThrow();
      MemoryLeaseRepository backup = new MemoryLeaseRepository();
      backup.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, backedUp, 0));
      platform.advance(HEARTBEAT);
      platform.advance(HEARTBEAT);
      assertThat(store.load("task").orElseThrow().revision()).isEqualTo(backedUp.revision() + 2);

      current.set(backup);
      platform.advance(HEARTBEAT);

      assertThat(lease.isHeld()).isFalse();
      LeaseLost lost = lease.lost().toCompletableFuture().join();
      assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.STORE_LOST);
      assertThat(lost.getCause()).hasMessageContaining("went back from revision");
      assertThat(backup.load("task").orElseThrow().revision())
          .as("no revision number written a second time")
          .isEqualTo(backedUp.revision());
    }
  }
}
