/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.time.Duration;
import java.util.Objects;

/**
 * Durations in nanoseconds without overflow, for repository authors: a {@link Duration} spans about
 * ±292 billion years, a {@code long} of nanoseconds only ±292 years, and {@link Duration#toNanos()}
 * throws beyond that. A wait budget or a TTL column wants the longest {@code long} instead, which
 * is longer than any TTL a manager accepts. Stateless and thread-safe.
 */
public final class Durations {

  private Durations() {}

  /**
   * The duration in nanoseconds, saturated: {@link Duration#toNanos()} where that fits in a {@code
   * long}, else {@link Long#MAX_VALUE} for a positive duration and {@link Long#MIN_VALUE} for a
   * negative one. Negative durations stay negative; a caller that wants them as zero says so.
   *
   * @param duration any duration
   * @return its nanoseconds, or the nearest {@code long}
   * @throws NullPointerException if {@code duration} is null
   */
  public static long saturatedNanos(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
