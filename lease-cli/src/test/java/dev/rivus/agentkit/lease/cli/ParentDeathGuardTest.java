/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParentDeathGuardTest {

  @Test
  void withoutSetprivTheCommandRunsAsGivenAndAWarningSaysWhatIsLost() {
    ParentDeathGuard guard = ParentDeathGuard.detect(Map.of("PATH", "/nonexistent"));

    assertThat(guard.active()).isFalse();
    assertThat(guard.wrap(List.of("make", "report"), Duration.ofSeconds(10)))
        .containsExactly("make", "report");
    assertThat(guard.warning())
        .hasValueSatisfying(w -> assertThat(w).contains("setpriv", "SIGKILL"));
  }

  @Test
  void withSetprivAndSetsidTheCommandIsStartedByAReaperBehindPdeathsig() {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/setpriv"))).as("util-linux setpriv").isTrue();
    ParentDeathGuard guard = ParentDeathGuard.detect(Map.of("PATH", "/usr/bin"));

    assertThat(guard.active()).isTrue();
    assertThat(guard.warning()).isEmpty();
    assertThat(guard.wrap(List.of("make", "report"), Duration.ofMillis(2500)))
        .containsExactly(
            "/usr/bin/setpriv",
            "--pdeathsig",
            "USR2",
            "--",
            "/bin/sh",
            "-c",
            ParentDeathGuard.REAPER,
            ParentDeathGuard.NAME,
            Long.toString(ProcessHandle.current().pid()),
            "2.500",
            "make",
            "report");
  }
}
