/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Acquisition, refusal while held, and the two kinds of takeover, on fake time. */
class AcquireAndTakeoverTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();
  private final FakePlatform holderPlatform = Samples.platformOf(100);
  private final FakePlatform observerPlatform = Samples.platformOf(200);
  private final LeaseManager holder = holderPlatform.newManager(repository, TTL, HEARTBEAT);
  private final LeaseManager observer = observerPlatform.newManager(repository, TTL, HEARTBEAT);

  @AfterEach
  void closeManagers() {
    holder.close();
    observer.close();
  }

  private void holderProcessRuns() {
    observerPlatform.markRunning(holderPlatform.currentProcess());
  }

  @Test
  void firstAcquisitionGetsTheWallClockInMicrosecondsAsGenerationAndWritesAHeldRecord() {
    long expected = LeaseSnapshot.firstGeneration(holderPlatform.now());
    try (Lease lease = holder.acquire("task:42")) {
      assertThat(lease.generation()).isEqualTo(expected);
      assertThat(expected).isEqualTo(1_767_225_600_000_000L); // 2026-01-01T00:00:00Z
      assertThat(lease.key()).isEqualTo("task:42");
      assertThat(lease.isHeld()).isTrue();
      LeaseSnapshot stored = repository.load("task:42").orElseThrow();
      assertThat(stored.isHeld()).isTrue();
      assertThat(stored.generation()).isEqualTo(expected);
      assertThat(stored.ttl()).isEqualTo(TTL);
      assertThat(stored.holder()).isEqualTo(lease.holder());
      assertThat(stored.holder().process()).isEqualTo(holderPlatform.currentProcess());
    }
  }

  @Test
  void releaseLeavesATombstoneAndTheNextHolderGetsAHigherGeneration() {
    long first;
    try (Lease lease = holder.acquire("task")) {
      first = lease.generation();
    }
    LeaseSnapshot tombstone = repository.load("task").orElseThrow();
    assertThat(tombstone.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(tombstone.generation()).isEqualTo(first);

    try (Lease next = observer.acquire("task")) {
      assertThat(next.generation()).isEqualTo(first + 1);
    }
  }

  @Test
  void acquireFailsFastWithTheHoldersFactsWhileTheHolderRenews() {
    holderProcessRuns();
    try (Lease lease = holder.acquire("task:42")) {
      holderPlatform.advance(HEARTBEAT);
      observerPlatform.advance(Duration.ofMillis(3200));

      assertThatThrownBy(() -> observer.acquire("task:42"))
          .isInstanceOfSatisfying(
              LeaseHeld.class,
              held -> {
                assertThat(held.key()).isEqualTo("task:42");
                assertThat(held.generation()).isEqualTo(lease.generation());
                assertThat(held.holder()).isEqualTo(lease.holder());
                assertThat(held.holderLiveness()).isEqualTo(Liveness.ALIVE);
                assertThat(held.observedUnchanged()).isZero();
                assertThat(held.ttl()).isEqualTo(TTL);
              })
          .hasMessage(
              "lease 'task:42' is held by build-7 pid 100 (generation "
                  + lease.generation()
                  + "); observed unchanged for 0.0 s of a 10.0 s TTL");
    }
  }

  @Test
  void aRenewingHolderIsNeverTakenOverHoweverLongTheObserverWatches() {
    holderProcessRuns();
    try (Lease lease = holder.acquire("task")) {
      for (int beat = 0; beat < 50; beat++) {
        holderPlatform.advance(HEARTBEAT);
        observerPlatform.advance(HEARTBEAT);
        assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      }
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void aHolderThatStopsRenewingIsTakenOverOnlyOnceTheObserverHasSeenItUnchangedForTheTtl() {
    holderProcessRuns();
    Lease stale = holder.acquire("task"); // its heartbeat never runs: holder's clock stands still

    assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
    observerPlatform.advance(TTL.minusMillis(1));
    assertThatThrownBy(() -> observer.acquire("task"))
        .isInstanceOfSatisfying(
            LeaseHeld.class,
            held -> assertThat(held.observedUnchanged()).isEqualTo(TTL.minusMillis(1)));
    observerPlatform.advance(Duration.ofMillis(1));

    try (Lease successor = observer.acquire("task")) {
      assertThat(successor.generation()).isGreaterThan(stale.generation());
    }
  }

  @Test
  void jumpingTheWallClockForwardByHoursDoesNotTakeALiveLeaseOver() {
    holderProcessRuns();
    try (Lease lease = holder.acquire("task")) {
      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);

      observerPlatform.jumpWallClock(Duration.ofHours(5));
      holderPlatform.jumpWallClock(Duration.ofHours(-3));

      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      holderPlatform.advance(HEARTBEAT);
      observerPlatform.advance(HEARTBEAT);
      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void aRecordWhoseWallClockTimeSaysItIsOldIsNotTakenOverEarly() {
    holderProcessRuns();
    holderPlatform.jumpWallClock(Duration.ofDays(-30)); // the holder's clock is a month behind
    try (Lease lease = holder.acquire("task")) {
      assertThat(repository.load("task").orElseThrow().updatedAt())
          .isBefore(observerPlatform.now().minus(Duration.ofDays(29)));

      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      observerPlatform.advance(TTL.minusSeconds(1));
      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void aGoneHolderOnTheSameHostIsTakenOverAtOnce() {
    Lease orphan = holder.acquire("task"); // the observer does not see pid 100 running: it is gone

    try (Lease successor = observer.acquire("task")) {
      assertThat(successor.generation()).isGreaterThan(orphan.generation());
    }
  }

  @Test
  void aHolderWhosePidNowNamesAnotherProcessIsTakenOverAtOnce() {
    Lease orphan = holder.acquire("task");
    ProcessIdentity reused =
        new ProcessIdentity("build-7", Samples.BOOT, Samples.PID_NAMESPACE, 100, "ticks:999999");
    observerPlatform.markRunning(reused); // pid 100 runs, but started at another time

    try (Lease successor = observer.acquire("task")) {
      assertThat(successor.generation()).isGreaterThan(orphan.generation());
    }
  }

  @Test
  void aHolderInAnotherPidNamespaceOrBootIsNotTakenOverBeforeTheTtl() {
    for (ProcessIdentity elsewhere :
        new ProcessIdentity[] {Samples.inAnotherContainer(100), Samples.onAnotherBoot(100)}) {
      String key = "task-" + elsewhere.pidNamespace() + elsewhere.bootId();
      try (LeaseManager remote =
          new FakePlatform(elsewhere).newManager(repository, TTL, HEARTBEAT)) {
        Lease lease = remote.acquire(key);

        assertThatThrownBy(() -> observer.acquire(key))
            .isInstanceOfSatisfying(
                LeaseHeld.class,
                held -> assertThat(held.holderLiveness()).isEqualTo(Liveness.UNKNOWN));
        observerPlatform.advance(TTL.minusMillis(1));
        assertThatThrownBy(() -> observer.acquire(key)).isInstanceOf(LeaseHeld.class);
        observerPlatform.advance(Duration.ofMillis(1));
        try (Lease successor = observer.acquire(key)) {
          assertThat(successor.generation()).isGreaterThan(lease.generation());
        }
      }
    }
  }

  @Test
  void blockingAcquireTakesOverWithinTheWaitOnceTheTtlHasPassed() throws InterruptedException {
    holderProcessRuns();
    Lease stale = holder.acquire("task");

    try (Lease successor = observer.acquire("task", TTL.plusSeconds(1))) {
      assertThat(successor.generation()).isGreaterThan(stale.generation());
    }
  }

  @Test
  void blockingAcquireEndsWithLeaseHeldWhenTheWaitEndsFirst() {
    holderProcessRuns();
    holder.acquire("task");
    long before = observerPlatform.nanoTime();

    assertThatThrownBy(() -> observer.acquire("task", TTL.dividedBy(2)))
        .isInstanceOf(LeaseHeld.class);
    assertThat(Duration.ofNanos(observerPlatform.nanoTime() - before))
        .isGreaterThanOrEqualTo(TTL.dividedBy(2));
  }

  @Test
  void blockingAcquireGetsTheLeaseSoonAfterTheHolderReleasesIt() throws InterruptedException {
    holderProcessRuns();
    Lease lease = holder.acquire("task");
    observerPlatform.advance(Duration.ofSeconds(1));
    lease.close();

    try (Lease next = observer.acquire("task", Duration.ofSeconds(1))) {
      assertThat(next.generation()).isGreaterThan(lease.generation());
    }
  }

  @Test
  void acquiringAKeyThisManagerAlreadyHoldsIsRefused() {
    try (Lease lease = holder.acquire("task")) {
      assertThatThrownBy(() -> holder.acquire("task")).isInstanceOf(LeaseHeld.class);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void closingTheManagerReleasesEveryLeaseItHolds() {
    Lease a = holder.acquire("a");
    Lease b = holder.acquire("b");

    holder.close();

    assertThat(a.isHeld()).isFalse();
    assertThat(b.isHeld()).isFalse();
    assertThat(repository.load("a").map(LeaseSnapshot::state)).contains(LeaseState.RELEASED);
    assertThat(repository.load("b").map(LeaseSnapshot::state)).contains(LeaseState.RELEASED);
    assertThat(a.lost().toCompletableFuture().join().reason()).isEqualTo(LeaseLost.Reason.RELEASED);
    assertThatThrownBy(() -> holder.acquire("c")).isInstanceOf(IllegalStateException.class);
    assertThat(holderPlatform.pendingTimers()).isZero();
  }

  @Test
  void badInputGetsAClearError() {
    assertThatThrownBy(() -> holder.acquire(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> holder.acquire(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lease key must not be empty");
    assertThatThrownBy(() -> holder.acquire("k".repeat(LeaseKeys.MAX_LENGTH + 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("lease key is 1025 UTF-16 code units long; the maximum is 1024");
    // An emoji is two UTF-16 code units: 513 of them are 1026, over the limit; 512 are at it.
    String emoji = "\uD83D\uDE00";
    assertThatThrownBy(() -> holder.acquire(emoji.repeat(513)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("lease key is 1026 UTF-16 code units long; the maximum is 1024")
        .hasMessageContaining("(key starts with '" + emoji.repeat(16) + "...')");
    holder.acquire(emoji.repeat(512)).close();
    assertThatThrownBy(() -> holder.acquire("k", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxWait must be zero or positive, was PT-1S");
    assertThatThrownBy(() -> holder.acquire("k", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("maxWait");
    assertThatThrownBy(() -> holder.acquire(null, Duration.ZERO))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> LeaseManager.builder(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("repository");
    assertThatThrownBy(() -> LeaseManager.builder(repository).ttl(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("ttl");
    assertThatThrownBy(() -> LeaseManager.builder(repository).heartbeat(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("heartbeat");
    assertThat(repository.load("k")).isEqualTo(Optional.empty());
  }

  @Test
  void aKeyOfMaximumLengthAndAnyContentIsAccepted() {
    String key = "../ü/" + "x".repeat(LeaseKeys.MAX_LENGTH - 5);
    try (Lease lease = holder.acquire(key)) {
      assertThat(lease.key()).isEqualTo(key);
    }
  }
}
