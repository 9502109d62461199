/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.platform.Ticker;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A waiting {@code acquire(key, maxWait)} on a repository's watch, on fake time: a release that
 * lands between a failed attempt and the wait is not lost, waits are bounded by the slow re-check,
 * the holder's TTL and the wait left, every watch is closed, and a repository with no watch is
 * polled as before.
 */
class WaitOnWatchTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofMillis(500);

  /** max(heartbeat, 1 s). */
  private static final Duration RECHECK = Duration.ofSeconds(1);

  /** min(heartbeat / 2, 200 ms): how often a holder on this machine is looked at. */
  private static final Duration POLL = Duration.ofMillis(200);

  /** How long a manager that just released a key waits before it tries for it again. */
  private static final Duration HAND_OFF = Duration.ofMillis(5);

  private final MemoryLeaseRepository memory = new MemoryLeaseRepository();
  private final FakePlatform holderPlatform = Samples.platformOf(100);
  private final FakePlatform waiterPlatform = Samples.platformOf(200);
  private final RecordingTicker ticker = new RecordingTicker(waiterPlatform);
  private final LeaseManager holder = holderPlatform.newManager(memory, TTL, HEARTBEAT);

  @AfterEach
  void closeManagers() {
    holder.close();
  }

  private LeaseManager waiterOn(LeaseRepository repository) {
    waiterPlatform.markRunning(holderPlatform.currentProcess());
    return LeaseManager.builder(repository)
        .ticker(ticker)
        .wallClock(waiterPlatform.wallClock())
        .scheduler(waiterPlatform)
        .currentProcess(waiterPlatform.currentProcess())
        .livenessJudge(waiterPlatform)
        .ttl(TTL)
        .heartbeat(HEARTBEAT)
        .build();
  }

  @Test
  void aReleaseBetweenTheFailedAttemptAndTheWaitIsSeenWithoutWaiting() throws Exception {
    Lease held = holder.acquire("k");
    AtomicInteger loads = new AtomicInteger();
    Watched watched =
        new Watched(memory) {
          @Override
          public Optional<LeaseSnapshot> load(String key) {
            Optional<LeaseSnapshot> read = super.load(key);
            if (loads.incrementAndGet() == 1) {
              held.close(); // lands after the attempt read the record, before it waits
            }
            return read;
          }
        };
    try (LeaseManager waiter = waiterOn(watched)) {
      long before = waiterPlatform.nanoTime();
      try (Lease next = waiter.acquire("k", Duration.ofSeconds(30))) {
        assertThat(next.generation()).isGreaterThan(held.generation());
      }
      assertThat(waiterPlatform.nanoTime() - before).as("fake time waited").isZero();
      assertThat(loads).hasValue(2);
    }
    assertThat(watched.opened).hasValue(1);
    assertThat(watched.closed).hasValue(1);
  }

  @Test
  void aManagerThatJustReleasedTheKeyLetsTheWaitersItWokeTryFirst() throws Exception {
    try (LeaseManager looping = waiterOn(new Watched(memory))) {
      looping.acquire("k").close();
      try (Lease again = looping.acquire("k", Duration.ofSeconds(30))) {
        assertThat(ticker.sleeps).as("one hand-off's wait first").containsExactly(HAND_OFF);
      }
      waiterPlatform.advance(HAND_OFF.plusMillis(1));
      ticker.sleeps.clear();
      try (Lease later = looping.acquire("k", Duration.ofSeconds(30))) {
        assertThat(ticker.sleeps).as("released longer ago than a hand-off").isEmpty();
      }
      looping.acquire("k").close();
      ticker.sleeps.clear();
      looping.acquire("k").close();
      assertThat(ticker.sleeps).as("a single try never waits").isEmpty();
    }
  }

  @Test
  void waitsOnTheWatchForTheRecheckTheTtlOrTheWaitLeftWhicheverIsFirst() throws Exception {
    Watched watched = new Watched(memory);
    FakePlatform elsewhere = new FakePlatform(Samples.onAnotherBoot(100));
    try (LeaseManager remote = elsewhere.newManager(memory, TTL, HEARTBEAT);
        Lease held = remote.acquire("k");
        LeaseManager waiter = waiterOn(watched)) {
      assertThatThrownBy(() -> waiter.acquire("k", Duration.ofMillis(2_500)))
          .isInstanceOf(LeaseHeld.class);
      assertThat(ticker.sleeps).as("no polling beside the watch").isEmpty();
      assertThat(ticker.awaits)
          .as("each wait on the watch")
          .containsExactly(RECHECK, RECHECK, Duration.ofMillis(500));
      assertThat(held.isHeld()).isTrue();
    }
    assertThat(watched.closed).hasValue(watched.opened.get()).hasValue(1);
  }

  @Test
  void aHolderOnThisMachineIsLookedAtEveryPollAndTakenOverWhenItDies() throws Exception {
    Watched watched = new Watched(memory);
    Lease held = holder.acquire("k");
    try (LeaseManager waiter = waiterOn(watched)) {
      ticker.onAwait(
          3,
          () -> {
            waiterPlatform.kill(holderPlatform.currentProcess()); // dies without releasing
          });
      long before = waiterPlatform.nanoTime();
      try (Lease next = waiter.acquire("k", Duration.ofSeconds(60))) {
        assertThat(next.generation()).isGreaterThan(held.generation());
      }
      assertThat(ticker.awaits)
          .as("each wait on the watch, a poll interval each")
          .containsExactly(POLL, POLL, POLL);
      assertThat(Duration.ofNanos(waiterPlatform.nanoTime() - before))
          .isEqualTo(POLL.multipliedBy(3));
    }
  }

  @Test
  void aHolderThatStopsRenewingIsTakenOverWhenItsTtlRunsOut() throws Exception {
    Watched watched = new Watched(memory);
    Lease held = holder.acquire("k");
    try (LeaseManager waiter = waiterOn(watched)) {
      long before = waiterPlatform.nanoTime();
      try (Lease next = waiter.acquire("k", Duration.ofSeconds(60))) {
        assertThat(next.generation()).isGreaterThan(held.generation());
      }
      // The holder's timer never runs (its platform's time stands still): its record stays.
      assertThat(Duration.ofNanos(waiterPlatform.nanoTime() - before)).isEqualTo(TTL);
      assertThat(ticker.awaits).allSatisfy(wait -> assertThat(wait).isLessThanOrEqualTo(RECHECK));
    }
  }

  @Test
  void withoutAWatchTheManagerPollsAsBefore() throws Exception {
    LeaseRepository noWatch =
        new ForwardingLeaseRepository(memory) {
          @Override
          public Optional<KeyWatch> watchKey(String key) {
            return Optional.empty();
          }
        };
    try (Lease held = holder.acquire("k");
        LeaseManager waiter = waiterOn(noWatch)) {
      assertThatThrownBy(() -> waiter.acquire("k", Duration.ofSeconds(2)))
          .isInstanceOf(LeaseHeld.class);
      assertThat(ticker.awaits).isEmpty();
      assertThat(ticker.sleeps)
          .hasSizeGreaterThanOrEqualTo(8)
          .allSatisfy(
              pause ->
                  assertThat(pause).isLessThanOrEqualTo(Duration.ofMillis(250))); // 200 ms ±20%
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void anAcquireThatTriesOnceOpensNoWatch() {
    Watched watched = new Watched(memory);
    try (Lease held = holder.acquire("k");
        LeaseManager waiter = waiterOn(watched)) {
      assertThatThrownBy(() -> waiter.acquire("k", Duration.ZERO)).isInstanceOf(LeaseHeld.class);
      assertThat(held.isHeld()).isTrue();
    }
    assertThat(watched.opened).hasValue(0);
  }

  /** Counts the watches opened and closed; they are the memory repository's own. */
  private static class Watched extends ForwardingLeaseRepository {
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();

    Watched(LeaseRepository delegate) {
      super(delegate);
    }

    @Override
    public Optional<KeyWatch> watchKey(String key) {
      KeyWatch watch = super.watchKey(key).orElseThrow();
      opened.incrementAndGet();
      return Optional.of(
          new KeyWatch() {
            @Override
            public boolean awaitRelease(Duration timeout) throws InterruptedException {
              return watch.awaitRelease(timeout);
            }

            @Override
            public void close() {
              closed.incrementAndGet();
              watch.close();
            }
          });
    }
  }

  /** The waiter's fake ticker, telling how long each wait was to be. */
  private static final class RecordingTicker implements Ticker {
    final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    final List<Duration> awaits = new CopyOnWriteArrayList<>();
    private final FakePlatform platform;

    RecordingTicker(FakePlatform platform) {
      this.platform = platform;
    }

    @Override
    public long nanoTime() {
      return platform.nanoTime();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      sleeps.add(duration);
      platform.sleep(duration);
    }

    private int actionAt = -1;
    private Runnable action = () -> {};

    /** Runs {@code action} during the {@code n}th wait on a watch (1 is the first). */
    void onAwait(int n, Runnable action) {
      this.actionAt = n;
      this.action = action;
    }

    @Override
    public boolean sleepUntil(Duration duration, Signal signal) throws InterruptedException {
      awaits.add(duration);
      if (awaits.size() == actionAt) {
        action.run();
      }
      return platform.sleepUntil(duration, signal);
    }
  }
}
