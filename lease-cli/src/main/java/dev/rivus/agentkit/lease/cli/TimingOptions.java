/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The {@code --ttl} and {@code --heartbeat} options, validated into a {@link LeaseConfig}. */
final class TimingOptions {

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = DurationConverter.class,
      description =
          "How long a record may stay unchanged before another process may take the lease over;"
              + " at least 1s (default: ${DEFAULT-VALUE}). The holder gives the lease up a tenth of"
              + " the TTL early, so that COMMAND can be stopped before anyone may take over; below"
              + " 1s that margin would be under 100ms. The TTL is written in the record: processes"
              + " with different --ttl on one key wait for the longer one.")
  Duration ttl = Duration.ofSeconds(60);

  @Option(
      names = "--heartbeat",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How often the holder renews: at least 10ms, at most half the TTL (default: a quarter of"
              + " the TTL).")
  @Nullable Duration heartbeat;

  /**
   * Returns the validated configuration.
   *
   * @return TTL and heartbeat
   * @throws CliFailure with the usage code if the durations are not a valid configuration
   */
  LeaseConfig config() {
    // The floors are the library's; checked here first only to name them in the options' terms.
    requireAtLeast(
        "--ttl",
        ttl,
        LeaseConfig.MIN_TTL,
        "a holder gives its lease up a tenth of the TTL early, so that its command can be stopped"
            + " before anyone may take over, and below "
            + DurationConverter.format(LeaseConfig.MIN_TTL)
            + " that margin is under "
            + DurationConverter.format(LeaseConfig.MIN_TTL.dividedBy(10)));
    Duration beat = heartbeat != null ? heartbeat : ttl.dividedBy(4);
    requireAtLeast(
        "--heartbeat",
        beat,
        LeaseConfig.MIN_HEARTBEAT,
        "renewing more often makes no lease safer, it only loads the repository");
    if (beat.multipliedBy(2).compareTo(ttl) > 0) {
      // Said here in the options' words: the library's message spells durations as PT6S.
      throw new CliFailure(
          ExitCodes.USAGE,
          "--heartbeat "
              + DurationConverter.format(beat)
              + " must be at most half the --ttl "
              + DurationConverter.format(ttl)
              + " (at most "
              + DurationConverter.format(ttl.dividedBy(2))
              + "), so that a holder renews at least twice within its TTL");
    }
    try {
      return new LeaseConfig(ttl, beat);
    } catch (LeaseConfigInvalid invalid) {
      throw new CliFailure(
          ExitCodes.USAGE,
          "invalid --"
              + invalid.setting()
              + ": "
              + invalid.getMessage()
              + " (--ttl "
              + DurationConverter.format(ttl)
              + ", --heartbeat "
              + DurationConverter.format(beat)
              + ")");
    }
  }

  private static void requireAtLeast(String option, Duration value, Duration floor, String why) {
    if (value.compareTo(floor) < 0) {
      throw new CliFailure(
          ExitCodes.USAGE,
          option
              + " "
              + DurationConverter.format(value)
              + " is below the minimum of "
              + DurationConverter.format(floor)
              + ": "
              + why);
    }
  }
}
