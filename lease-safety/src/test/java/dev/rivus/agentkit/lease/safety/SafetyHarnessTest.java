/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end, briefly: JSON files and SQLite attacked for 12 s each with kill -9,
 * SIGSTOP and clock jumps, and the negative control, which must be caught.
 */
@Tag("cross-process")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SafetyHarnessTest {

  private static final Duration PHASE = Duration.ofSeconds(12);

  @TempDir Path out;

  @Test
  void findsNoViolationOnRealRepositoriesAndCatchesTheBrokenOne() throws Exception {
    long seed = System.nanoTime() % 1_000_000;
    List<Phase> phases =
        List.of(
            new Phase("file", StoreKind.FILE, true, PHASE, 4, seed, false),
            new Phase("sqlite", StoreKind.SQLITE, true, PHASE, 4, seed + 1, false),
            new Phase("negative-control", StoreKind.BROKEN, false, PHASE, 4, seed + 2, true));
    ByteArrayOutputStream report = new ByteArrayOutputStream();

    boolean passed;
    try (PrintStream print = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      passed = SafetyMain.run(phases, out, print);
    }

    String text = report.toString(StandardCharsets.UTF_8);
    System.out.print(text); // kept in the test's output file, for the figures
    assertThat(passed).as(text).isTrue();
    assertThat(text).contains("ALL PHASES PASSED");
  }
}
