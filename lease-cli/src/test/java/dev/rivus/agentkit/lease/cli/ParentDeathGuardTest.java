package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParentDeathGuardTest {

  @Test
  void withoutSetprivTheCommandRunsAsGivenAndAWarningSaysWhatIsLost() {
    ParentDeathGuard guard = ParentDeathGuard.detect(Map.of("PATH", "/nonexistent"));

    assertThat(guard.active()).isFalse();
    assertThat(guard.wrap(List.of("make", "report"))).containsExactly("make", "report");
    assertThat(guard.warning())
        .hasValueSatisfying(w -> assertThat(w).contains("setpriv", "SIGKILL"));
  }

  @Test
  void withSetprivTheCommandIsStartedBehindPdeathsigAndAParentCheck() {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/setpriv"))).as("util-linux setpriv").isTrue();
    ParentDeathGuard guard = ParentDeathGuard.detect(Map.of("PATH", "/usr/bin"));

    assertThat(guard.active()).isTrue();
    assertThat(guard.warning()).isEmpty();
    assertThat(guard.wrap(List.of("make", "report")))
        .containsExactly(
            "/usr/bin/setpriv",
            "--pdeathsig",
            "KILL",
            "--",
            "/bin/sh",
            "-c",
            ParentDeathGuard.CHECK,
            ParentDeathGuard.NAME,
            Long.toString(ProcessHandle.current().pid()),
            "make",
            "report");
  }
}
