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
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lease past its deadline is lost even when the manager's timer has not run yet: after a pause
 * (SIGSTOP, a frozen VM, a long GC) the thread that asks may wake before the timer does. Found by
 * the safety harness: a {@code lease run} stopped for longer than its TTL found, on resume, that
 * its command had exited, and exited 0 before its timer declared the lease expired.
 *
 * <p>The manager's ticker here moves apart from the platform's timers: moving it is a pause after
 * which no timer has run yet.
 */
class LateTimerTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FakePlatform platform = Samples.platformOf(100);
  private final AtomicLong nanos = new AtomicLong(platform.nanoTime());
  private final Ticker paused = nanos::get;
  private final LeaseManager manager =
      LeaseManager.builder(store)
          .ticker(paused)
          .wallClock(platform.wallClock())
          .scheduler(platform)
          .currentProcess(platform.currentProcess())
          .livenessJudge(platform)
          .ttl(TTL)
          .heartbeat(HEARTBEAT)
          .build();

  @AfterEach
  void closeManager() {
    manager.close();
  }

  private void pauseFor(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  @Test
  void aLeasePastItsDeadlineIsNotHeldAndItsLossIsComplete() {
    Lease lease = manager.acquire("k");
    pauseFor(Duration.ofSeconds(8));
    assertThat(lease.isHeld())
        .as("before the deadline (1 s, a safety margin, under the TTL)")
        .isTrue();

    pauseFor(Duration.ofSeconds(1));

    assertThat(platform.pendingTimers()).as("the timer has not run").isPositive();
    assertThat(lease.isHeld()).isFalse();
    assertThat(lease.lost().toCompletableFuture().getNow(null))
        .isNotNull()
        .extracting(LeaseLost::reason)
        .isEqualTo(LeaseLost.Reason.EXPIRED);
  }

  @Test
  void uninterruptibleWorkThatOutlastedTheDeadlineIsReportedAsTheLoss() {
    Lease lease = manager.acquire("k");

    assertThatThrownBy(
            () ->
                lease.runFencedUninterruptibly(
                    token -> {
                      pauseFor(TTL);
                      return 0;
                    }))
        .isInstanceOf(LeaseLost.class)
        .extracting(e -> ((LeaseLost) e).reason())
        .isEqualTo(LeaseLost.Reason.EXPIRED);
  }

  @Test
  void fencedWorkDoesNotStartPastTheDeadline() {
    Lease lease = manager.acquire("k");
    pauseFor(TTL);

    assertThatThrownBy(() -> lease.runFenced(token -> "ran"))
        .isInstanceOf(LeaseLost.class)
        .extracting(e -> ((LeaseLost) e).reason())
        .isEqualTo(LeaseLost.Reason.EXPIRED);
  }
}
