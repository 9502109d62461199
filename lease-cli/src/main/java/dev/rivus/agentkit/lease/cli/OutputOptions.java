/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The options of the inspecting commands: {@code --json} and {@code --observe}. */
final class OutputOptions {

  @Option(names = "--json", description = "Print JSON for scripts instead of a table.")
  boolean json;

  @Option(
      names = "--observe",
      paramLabel = "DURATION",
      defaultValue = "0s",
      converter = DurationConverter.class,
      description =
          "Read the records twice, this long apart, and report which stayed unchanged for that long"
              + " (default: ${DEFAULT-VALUE}: one read, so UNCHANGED is 0s, since first seen by this"
              + " command).")
  Duration observe = Duration.ZERO;
}
