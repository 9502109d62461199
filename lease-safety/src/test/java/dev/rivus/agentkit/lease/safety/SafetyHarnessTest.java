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
 * The harness end to end, briefly: JSON files and SQLite attacked for 18 s each with kill -9,
 * SIGSTOP, clock jumps, storage faults, a {@code lease run} worker that is killed, stopped and has
 * its stderr blocked, and a library worker whose stderr blocks, and the negative control (12 s),
 * which must be caught.
 */
@Tag("cross-process")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SafetyHarnessTest {

  private static final Duration PHASE = Duration.ofSeconds(18);
  private static final Duration CONTROL = Duration.ofSeconds(12);

  @TempDir Path out;

  @Test
  void findsNoViolationOnRealRepositoriesAndCatchesTheBrokenOne() throws Exception {
    long seed = System.nanoTime() % 1_000_000;
    List<Phase> phases =
        List.of(
            new Phase("file", StoreKind.FILE, true, PHASE, 4, seed, false),
            new Phase("sqlite", StoreKind.SQLITE, true, PHASE, 4, seed + 1, false),
            new Phase("negative-control", StoreKind.BROKEN, false, CONTROL, 4, seed + 2, true));
    ByteArrayOutputStream report = new ByteArrayOutputStream();

    boolean passed;
    try (PrintStream print = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      passed = SafetyMain.run(phases, out, print);
    }

    String text = report.toString(StandardCharsets.UTF_8);
    System.out.print(text); // kept in the test's output file, for the figures
    assertThat(passed).as(text).isTrue();
    assertThat(text).contains("ALL PHASES PASSED");
    for (String phase : List.of("file", "sqlite")) {
      String section = text.substring(text.indexOf("== " + phase + ":"));
      String faults = section.substring(section.indexOf("  faults: "));
      faults = faults.substring(0, faults.indexOf('\n'));
      assertThat(faults)
          .as(phase + ": a storage fault, a fault of a lease run process, a blocked stderr")
          .containsPattern(String.join("|", StorageFaults.KINDS))
          .containsPattern("run_(kill|stop|stderr)")
          .contains("stderr_block");
      assertThat(out.resolve(phase).resolve("worker-r5.jsonl"))
          .as(phase + ": a lease run that acquired")
          .content()
          .contains("\"ev\":\"acquire_ok\"");
    }
  }
}
