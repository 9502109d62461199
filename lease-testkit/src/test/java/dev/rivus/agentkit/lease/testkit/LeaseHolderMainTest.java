/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cross-process suite's child, in a real child JVM (ChildJvm's own tests are in test-support).
 */
@Tag("cross-process")
class LeaseHolderMainTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void leaseHolderRejectsABadCommandLine() throws Exception {
    try (ChildJvm child = ChildJvm.start(LeaseHolderMain.class, List.of("--key=k", "--bogus=1"))) {
      assertThat(child.awaitLine("FAILED ", PATIENCE)).contains("unknown argument '--bogus=1'");
      assertThat(child.awaitExit(PATIENCE)).isEqualTo(LeaseHolderMain.EXIT_USAGE);
    }
  }
}
