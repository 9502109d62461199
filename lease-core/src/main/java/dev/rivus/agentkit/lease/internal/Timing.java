/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseConfig;
import java.time.Duration;

/**
 * A manager's TTL and heartbeat in the nanoseconds its clocks count, and what follows from them.
 */
final class Timing {

  private static final Duration MAX_SAFETY_MARGIN = Duration.ofSeconds(1);

  private final LeaseConfig config;
  private final long heartbeatNanos;
  private final long lossAfterNanos;
  private final long retryNanos;
  private final long lateMarginNanos;

  Timing(LeaseConfig config) {
    this.config = config;
    this.heartbeatNanos = config.heartbeat().toNanos();
    this.lossAfterNanos = config.ttl().minus(safetyMargin(config.ttl())).toNanos();
    // Room for several retries inside the TTL, without hammering a struggling repository.
    this.retryNanos = Math.max(1, heartbeatNanos / 4);
    this.lateMarginNanos = Math.max(0, lossAfterNanos - heartbeatNanos) / 2;
  }

  /**
   * How much sooner than the TTL a holder gives up: observers start counting the TTL only when they
   * first read the renewal, but the holder's own timer may fire late (a busy scheduler, a
   * collection pause) and interrupted work needs a moment to stop. A tenth of the TTL, at most 1 s.
   */
  static Duration safetyMargin(Duration ttl) {
    Duration tenth = ttl.dividedBy(10);
    return tenth.compareTo(MAX_SAFETY_MARGIN) < 0 ? tenth : MAX_SAFETY_MARGIN;
  }

  LeaseConfig config() {
    return config;
  }

  long heartbeatNanos() {
    return heartbeatNanos;
  }

  /** How long after the start of its last successful renewal a holder declares its lease lost. */
  long lossAfterNanos() {
    return lossAfterNanos;
  }

  /**
   * How little TTL a lease being renewed may have left before its round is late: half of what a
   * round on time leaves it, {@code (lossAfter - heartbeat) / 2}, at least a fifth of the TTL (the
   * heartbeat is at most half of it). Telling then leaves the other half for the round to finish,
   * or for the operator to see why it does not.
   */
  long lateMarginNanos() {
    return lateMarginNanos;
  }

  /** How soon a failed renewal is tried again. */
  long retryNanos() {
    return retryNanos;
  }

  /**
   * Whether a lease whose acquiring write took {@code elapsedNanos} still has room for its first
   * renewal: a heartbeat before it would be declared lost.
   */
  boolean leavesRoomForRenewal(long elapsedNanos) {
    return elapsedNanos <= lossAfterNanos - heartbeatNanos;
  }
}
