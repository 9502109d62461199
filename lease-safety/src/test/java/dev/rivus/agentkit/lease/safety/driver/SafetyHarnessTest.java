/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.safety.check.Thresholds;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end, briefly: SQLite, the default store, attacked for 25 s with kill -9,
 * SIGSTOP, clock jumps, a storage fault, a {@code lease run} worker that is killed, stopped or has
 * its stderr blocked, and a library worker whose stderr blocks (the phase is INSUFFICIENT, and
 * fails, unless each of those ran and a {@code lease run} acquired: {@link Phase#thresholds()});
 * then the negative control (10 s), which must be caught. Every repository, for longer, is the
 * CI-sized run of {@link SafetyMain} that {@code .ci/run} makes (docs/safety.md).
 */
@Tag("cross-process")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SafetyHarnessTest {

  private static final Duration PHASE = Duration.ofSeconds(25);
  private static final Duration CONTROL = Duration.ofSeconds(10);

  // Kept when the test fails: the phase's logs are what tells why.
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path out;

  @Test
  void findsNoViolationOnSqliteAndCatchesTheBrokenRepository() throws Exception {
    long seed = System.nanoTime() % 1_000_000;
    List<Phase> phases =
        List.of(
            new Phase("sqlite", StoreKind.SQLITE, true, PHASE, 4, seed, false),
            new Phase("negative-control", StoreKind.BROKEN, false, CONTROL, 4, seed + 1, true));
    ByteArrayOutputStream report = new ByteArrayOutputStream();

    boolean passed;
    try (PrintStream print = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      passed = SafetyMain.run(phases, out, print);
    }

    String text = report.toString(StandardCharsets.UTF_8);
    System.out.print(text); // kept in the test's output file, for the figures
    assertThat(passed).as(text).isTrue();
    assertThat(text).contains("ALL PHASES PASSED");
    assertThat(out.resolve("sqlite").resolve("worker-r5.jsonl"))
        .as("a lease run that acquired")
        .content()
        .contains("\"ev\":\"acquire_ok\"");
  }

  @Test
  void aPhaseWithoutTheFaultsItIsThereForIsInsufficient() {
    Thresholds sqlite =
        new Phase("sqlite", StoreKind.SQLITE, true, PHASE, 4, 1, false).thresholds();
    Thresholds control =
        new Phase("control", StoreKind.BROKEN, false, CONTROL, 4, 1, true).thresholds();

    assertThat(sqlite.faultKinds())
        .contains(Set.of("kill"), Set.of("stop"), Set.of("stderr_block"))
        .anyMatch(family -> family.containsAll(StorageFaults.KINDS))
        .anyMatch(family -> family.containsAll(LeaseRunSlot.KINDS));
    assertThat(sqlite.leaseRunAcquisitions()).isEqualTo(1);
    assertThat(control.faultKinds()).isEmpty();
  }
}
