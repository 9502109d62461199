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
          "How long a record may stay unchanged before another process may take the lease over"
              + " (default: ${DEFAULT-VALUE}).")
  Duration ttl = Duration.ofSeconds(60);

  @Option(
      names = "--heartbeat",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How often the holder renews; at most half the TTL (default: a quarter of it).")
  @Nullable Duration heartbeat;

  /**
   * Returns the validated configuration.
   *
   * @return TTL and heartbeat
   * @throws CliFailure with the usage code if the durations are not a valid configuration
   */
  LeaseConfig config() {
    Duration beat = heartbeat != null ? heartbeat : ttl.dividedBy(4);
    try {
      return LeaseConfig.of(ttl, beat);
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
}
