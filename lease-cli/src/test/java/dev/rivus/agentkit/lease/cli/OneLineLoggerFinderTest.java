/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OneLineLoggerFinderTest {

  private final System.Logger logger =
      new OneLineLoggerFinder().getLogger("dev.rivus.agentkit.lease", getClass().getModule());

  @Test
  void aRecordIsOneLineNamingItsLevelAndCauseWithoutAStackTrace() {
    String printed =
        printedBy(
            () ->
                logger.log(
                    Level.WARNING,
                    "could not release job\nafter the loss",
                    new IOException("disk full")));

    assertThat(printed)
        .isEqualTo(
            "lease: warning: could not release job; after the loss (disk full)"
                + System.lineSeparator());
  }

  @Test
  void recordsBelowInfoAreDroppedAndFormatsAreFilledIn() {
    assertThat(logger.isLoggable(Level.DEBUG)).isFalse();
    assertThat(logger.isLoggable(Level.INFO)).isTrue();
    assertThat(printedBy(() -> logger.log(Level.DEBUG, "a detail"))).isEmpty();
    assertThat(printedBy(() -> logger.log(Level.INFO, "held by {0} since {1}", "pid 7", "noon")))
        .isEqualTo("lease: info: held by pid 7 since noon" + System.lineSeparator());
  }

  private static String printedBy(Runnable logging) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      logging.run();
    } finally {
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
