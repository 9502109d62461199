/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A worker's injected clocks: a wall clock and a monotonic ticker that follow the system's, each
 * shifted by an offset the driver can change. The monotonic offset only grows, so the ticker never
 * goes back.
 *
 * <p>Thread-safe.
 */
final class Skew {

  private final AtomicLong wallOffsetMillis = new AtomicLong();
  private final AtomicLong monotonicOffsetNanos = new AtomicLong();

  /** Clocks that follow the system's, with no offset yet. */
  public Skew() {}

  /**
   * Shifts the wall clock.
   *
   * @param by how far, either way
   */
  public void jumpWall(Duration by) {
    wallOffsetMillis.addAndGet(by.toMillis());
  }

  /**
   * Moves the monotonic ticker forward.
   *
   * @param by how far; must not be negative
   * @throws IllegalArgumentException if {@code by} is negative
   */
  public void jumpMonotonic(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("a monotonic clock only goes forward, not by " + by);
    }
    monotonicOffsetNanos.addAndGet(by.toNanos());
  }

  /**
   * Returns the ticker the worker's manager uses.
   *
   * @return the shifted ticker
   */
  public Ticker ticker() {
    return () -> System.nanoTime() + monotonicOffsetNanos.get();
  }

  /**
   * Returns the wall clock the worker's manager uses.
   *
   * @return the shifted clock, in UTC
   */
  public Clock clock() {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the skewed clock is in UTC only");
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(millis());
      }

      @Override
      public long millis() {
        return System.currentTimeMillis() + wallOffsetMillis.get();
      }
    };
  }
}
