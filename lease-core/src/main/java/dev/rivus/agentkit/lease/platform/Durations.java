/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.time.Duration;

/** Conversions of durations that cannot overflow. */
final class Durations {

  private Durations() {}

  /** The duration in nanoseconds, saturated at zero and at {@link Long#MAX_VALUE}. */
  static long saturatedNanos(Duration duration) {
    try {
      return Math.max(0, duration.toNanos());
    } catch (ArithmeticException e) {
      return duration.isNegative() ? 0 : Long.MAX_VALUE;
    }
  }
}
