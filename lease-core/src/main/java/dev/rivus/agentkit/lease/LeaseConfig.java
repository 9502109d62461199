package dev.rivus.agentkit.lease;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The timing of the leases one {@link LeaseManager} holds. Immutable; validated once, when created.
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
   * Validates the durations.
   *
   * @param ttl see the class description
   * @param heartbeat see the class description
   * @throws LeaseConfigInvalid if a duration is null or not positive, or {@code heartbeat × 2 >
   *     ttl}
   */
  public LeaseConfig {
    requirePositive("ttl", ttl);
    requirePositive("heartbeat", heartbeat);
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
   * Creates a configuration.
   *
   * @param ttl how long a record may stay unchanged before an observer may take the lease over
   * @param heartbeat how often the holder renews; at most half the TTL
   * @return the validated configuration
   * @throws LeaseConfigInvalid if a duration is null or not positive, or {@code heartbeat × 2 >
   *     ttl}
   */
  public static LeaseConfig of(@Nullable Duration ttl, @Nullable Duration heartbeat) {
    return new LeaseConfig(ttl, heartbeat);
  }

  /**
   * Returns the defaults: a 60 s TTL renewed every 15 s.
   *
   * @return the default configuration
   */
  public static LeaseConfig defaults() {
    return new LeaseConfig(Duration.ofSeconds(60), Duration.ofSeconds(15));
  }

  private static void requirePositive(String setting, @Nullable Duration value) {
    if (value == null) {
      throw new LeaseConfigInvalid(setting, setting + " must not be null");
    }
    if (value.isNegative() || value.isZero()) {
      throw new LeaseConfigInvalid(setting, setting + " must be positive, was " + value);
    }
    if (value.compareTo(MAX_DURATION) > 0) {
      throw new LeaseConfigInvalid(
          setting, setting + " must be at most " + MAX_DURATION + ", was " + value);
    }
  }
}
