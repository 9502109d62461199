/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How this process decides whether it sees processes that {@code hidepid} hides. */
class ProcVisibilityTest {

  @TempDir Path proc;

  private void given(String uidMap, String capEff) throws IOException {
    Files.createDirectories(proc.resolve("self"));
    Files.writeString(proc.resolve("self/uid_map"), uidMap + "\n");
    Files.writeString(
        proc.resolve("self/status"), "Name:\tjava\nUid:\t0\t0\t0\t0\nCapEff:\t" + capEff + "\n");
  }

  @ParameterizedTest
  @CsvSource({
    "'         0          0 4294967295', 000001ffffffffff, true",
    "'         0          0 4294967295', 0000000000080000, true",
    "'         0          0 4294967295', 00000000a80425fb, false",
    "'         0          0 4294967295', 0000000000000000, false",
    "'         0       1000          1', 000001ffffffffff, false",
  })
  void seesHiddenProcessesOnlyWithPtraceCapabilityInTheInitialUserNamespace(
      String uidMap, String capEff, boolean sees) throws IOException {
    given(uidMap, capEff);

    assertThat(ProcVisibility.seesHiddenProcesses(proc)).isEqualTo(sees);
  }

  @Test
  void doesNotSeeHiddenProcessesWhenItsCapabilitiesCannotBeRead() {
    assertThat(ProcVisibility.seesHiddenProcesses(proc)).isFalse();
  }

  @Test
  void undoesTheKernelsOctalEscapesInMountPoints() {
    assertThat(ProcVisibility.unescape("/my\\040proc\\134x\\011")).isEqualTo("/my proc\\x\t");
    assertThat(ProcVisibility.unescape("/plain\\04")).isEqualTo("/plain\\04");
  }
}
