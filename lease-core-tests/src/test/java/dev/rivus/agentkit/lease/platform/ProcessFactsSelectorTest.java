/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which process facts the system platform uses. */
class ProcessFactsSelectorTest {

  private static final Path PROC = Path.of("/proc");

  private static void assumeLinuxWithProc() {
    assumeTrue(
        System.getProperty("os.name", "").startsWith("Linux")
            && Files.isReadable(PROC.resolve("self/stat")),
        "needs Linux with a readable /proc");
  }

  @Test
  void usesProcOnLinux() {
    assumeLinuxWithProc();

    assertThat(ProcessFactsSelector.select("Linux", PROC)).isInstanceOf(LinuxProcessFacts.class);
    assertThat(ProcessFactsSelector.forThisSystem()).isInstanceOf(LinuxProcessFacts.class);
  }

  @Test
  void givesTheSystemPlatformABootIdAndPidNamespaceOnLinux() {
    assumeLinuxWithProc();

    assertThat(SystemProcesses.detect().currentProcess().bootId()).isNotNull();
    assertThat(SystemProcesses.detect().currentProcess().pidNamespace()).isNotNull();
  }

  @Test
  void fallsBackToPortableFactsOnLinuxWithoutAReadableProc(@TempDir Path emptyProc) {
    assertThat(ProcessFactsSelector.select("Linux", emptyProc))
        .isInstanceOf(PortableProcessFacts.class);
  }

  @Test
  void usesPortableFactsOnOtherSystems() {
    assertThat(ProcessFactsSelector.select("Mac OS X", PROC))
        .isInstanceOf(PortableProcessFacts.class);
    assertThat(ProcessFactsSelector.select("Windows 11", PROC))
        .isInstanceOf(PortableProcessFacts.class);
  }
}
