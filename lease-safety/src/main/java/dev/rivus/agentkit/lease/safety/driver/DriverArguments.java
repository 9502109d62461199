/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * What {@link SafetyMain} and {@link MutantMain} take alike: the seed, the workers per phase and
 * the directory of the logs (a picocli mixin), and how a driver's command line is parsed. Not
 * thread-safe: filled in once, by picocli, before the run.
 */
final class DriverArguments {

  @Option(names = "--seed", paramLabel = "S")
  long seed = ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);

  @Option(names = "--workers", paramLabel = "N", converter = PositiveInteger.class)
  int workers = 4;

  @Option(names = "--out", paramLabel = "DIR")
  @Nullable Path out;

  /** The directory of the logs: {@code --out}, made if missing, else a new temporary one. */
  Path logDirectory(String temporaryPrefix) throws IOException {
    return out != null ? Files.createDirectories(out) : Files.createTempDirectory(temporaryPrefix);
  }

  /**
   * Fills a driver's options (a picocli {@code @Command}) from its arguments.
   *
   * @throws IllegalArgumentException saying what is wrong, then how to call the driver
   */
  static <T> T parse(T options, String[] args) {
    CommandLine command = new CommandLine(options);
    try {
      command.parseArgs(args);
    } catch (ParameterException bad) {
      throw new IllegalArgumentException(
          bad.getMessage() + "\nusage: " + command.getHelp().synopsis(0).strip(), bad);
    }
    return options;
  }
}
