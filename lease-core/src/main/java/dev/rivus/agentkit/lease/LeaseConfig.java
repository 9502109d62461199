/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;
import java.util.Objects;

/**
 * The timing of the leases one {@link LeaseManager} holds, as the manager reports it ({@link
 * LeaseManager#config()}). Immutable; validated once, when created. A manager's TTL and heartbeat
 * are set on its builder ({@link LeaseManagerBuilder#ttl}, {@link LeaseManagerBuilder#heartbeat}),
 * which validates them as this record does.
 *
 * <p>A holder renews every {@code heartbeat}. Another process may take a lease over when it has
 * seen the same record unchanged for {@code ttl} on its own monotonic clock, so a holder that
 * cannot renew treats its lease as lost no later than {@code ttl} after the start of its last
 * successful renewal. {@code heartbeat × 2 ≤ ttl} leaves room for at least one retry of a failed
 * renewal.
 *
 * @param ttl how long a record may stay unchanged before an observer may take the lease over
 * @param heartbeat how often the holder renews
 */
public record LeaseConfig(Duration ttl, Duration heartbeat) {

  /** The longest TTL or heartbeat accepted: 36,500 days, far inside what the clocks can count. */
  public static final Duration MAX_DURATION = Duration.ofDays(36_500);

  /**
   * The shortest TTL accepted: one second. A holder gives its lease up a tenth of the TTL early, so
   * that a late timer or interrupted work has time to stop before anyone may take over; under a
   * second, that margin is below 100 ms, which a collection pause, a busy scheduler on a loaded
   * machine or one synced write on a slow disk routinely takes, and a holder would lose leases it
   * is renewing, or hold on to them past its promise.
   */
  public static final Duration MIN_TTL = Duration.ofSeconds(1);

  /**
   * The shortest heartbeat accepted: 10 ms. Renewing more often makes no lease safer; it only loads
   * the repository, and timers do not keep a finer pace on a busy machine.
   */
  public static final Duration MIN_HEARTBEAT = Duration.ofMillis(10);

  /**
   * Validates the durations.
   *
   * @param ttl see the class description
   * @param heartbeat see the class description
   * @throws NullPointerException if a duration is null
   * @throws LeaseConfigInvalid if a duration is below its minimum ({@link #MIN_TTL}, {@link
   *     #MIN_HEARTBEAT}) or above {@link #MAX_DURATION}, or {@code heartbeat × 2 > ttl}
   */
  public LeaseConfig {
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(heartbeat, "heartbeat");
    requireWithin("ttl", ttl, MIN_TTL);
    requireWithin("heartbeat", heartbeat, MIN_HEARTBEAT);
    if (heartbeat.multipliedBy(2).compareTo(ttl) > 0) {
      throw new LeaseConfigInvalid(
          "heartbeat",
          "heartbeat "
              + heartbeat
              + " is too slow for ttl "
              + ttl
              + ": heartbeat × 2 must not exceed ttl (at most "
              + ttl.dividedBy(2)
              + ")");
    }
  }

  /**
   * Returns the defaults: a 60 s TTL renewed every 15 s.
   *
   * @return the default configuration
   */
  public static LeaseConfig defaults() {
    return new LeaseConfig(Duration.ofSeconds(60), Duration.ofSeconds(15));
  }

  private static String minReason(String setting) {
    return setting.equals("ttl")
        ? " (a shorter TTL leaves a holder too little time to stop before it may be taken over)"
        : " (renewing more often only loads the repository)";
  }

  private static void requireWithin(String setting, Duration value, Duration min) {
    if (value.compareTo(min) < 0) {
      throw new LeaseConfigInvalid(
          setting, setting + " must be at least " + min + ", was " + value + minReason(setting));
    }
    if (value.compareTo(MAX_DURATION) > 0) {
      throw new LeaseConfigInvalid(
          setting, setting + " must be at most " + MAX_DURATION + ", was " + value);
    }
  }
}
