/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Watches one renewal round, and tells once, on the timer, if it runs late: when the round's lease
 * with the least TTL left has only {@link Timing#lateMarginNanos()} left and the round still runs.
 * That is before the lease can be lost to the delay, and a round that takes as long as the TTL
 * tells it once, not once per lease. Telling only queues a task (an event, a warning), so the timer
 * never waits for a listener or a log.
 *
 * <p>Thread-safe: {@link #end()} on the round's thread and the timer's task may race; whichever
 * comes first decides, so the round is told at most once.
 */
final class LateRound {

  private final ManagerParts parts;
  private final ManagedLease atRisk;
  private final int leases;
  private final long startNanos;
  private final AtomicBoolean settled = new AtomicBoolean();
  private final LeaseScheduler.Cancellable timer;

  private LateRound(ManagerParts parts, ManagedLease atRisk, int leases, long startNanos) {
    this.parts = parts;
    this.atRisk = atRisk;
    this.leases = leases;
    this.startNanos = startNanos;
    long lateAt = atRisk.deadlineNanos() - parts.timing().lateMarginNanos();
    this.timer =
        parts.scheduler().schedule(Duration.ofNanos(Math.max(0, lateAt - startNanos)), this::tell);
  }

  /**
   * Starts watching a round that began at {@code startNanos} and renews {@code leases} leases, of
   * which {@code atRisk} has the earliest deadline.
   */
  static LateRound watch(ManagerParts parts, ManagedLease atRisk, int leases, long startNanos) {
    return new LateRound(parts, atRisk, leases, startNanos);
  }

  /** The round is over: nothing is told after this. */
  void end() {
    if (settled.compareAndSet(false, true)) {
      timer.cancel();
    }
  }

  private void tell() {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    Ticker ticker = parts.ticker();
    long now = ticker.nanoTime();
    Duration running = Duration.ofNanos(now - startNanos);
    Duration ttlLeft = Duration.ofNanos(Math.max(0, atRisk.deadlineNanos() - now));
    parts.events().renewalLate(atRisk, leases, running, ttlLeft);
    parts.warnings().warn(() -> message(running, ttlLeft), null);
  }

  private String message(Duration running, Duration ttlLeft) {
    return String.format(
        Locale.ROOT,
        "lease renewals run late: a round renewing %,d lease%s of manager '%s' has run for %.1f s"
            + " and lease '%s' has %.1f s of its TTL left (heartbeat %.1f s, TTL %.1f s); the store is"
            + " too slow for this many leases, or does not answer: hold fewer leases per manager,"
            + " lengthen the heartbeat and TTL, or use a faster store (see each store's capacity"
            + " in its docs)",
        leases,
        leases == 1 ? "" : "s",
        parts.name(),
        running.toNanos() / 1e9,
        atRisk.key(),
        ttlLeft.toNanos() / 1e9,
        parts.timing().heartbeatNanos() / 1e9,
        parts.timing().config().ttl().toNanos() / 1e9);
  }
}
