/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRangeLockCrossProcessTest {

  private static final Duration CHILD_START = Duration.ofSeconds(60);

  @TempDir Path directory;

  @Test
  void boundedWaitFailsWhileAnotherProcessHoldsTheRangeAndSucceedsOnceItIsKilled()
      throws Exception {
    Path file = directory.resolve("cross.lock");
    try (ChildJvm child = ChildJvm.start(RangeLockHolderMain.class, file.toString(), "7", "1")) {
      child.awaitLine("LOCKED", CHILD_START);

      assertThatThrownBy(() -> FileRangeLock.of(file, 7, 1).lock(Duration.ofMillis(300)))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("another process")
          .hasMessageContaining(file.toString());

      child.kill();

      // The operating system released the dead process's lock; no cleanup step was needed.
      try (FileRangeLock.Held held = FileRangeLock.of(file, 7, 1).lock(Duration.ofSeconds(10))) {
        assertThat(held.isHeld()).isTrue();
      }
    }
  }

  @Test
  void anotherProcessHoldingOneRangeLeavesTheOthersFree() throws Exception {
    Path file = directory.resolve("ranges.lock");
    try (ChildJvm child = ChildJvm.start(RangeLockHolderMain.class, file.toString(), "0", "1")) {
      child.awaitLine("LOCKED", CHILD_START);

      try (FileRangeLock.Held held = FileRangeLock.of(file, 1, 1).lock(Duration.ofMillis(500))) {
        assertThat(held.isHeld()).isTrue();
      }
      assertThatThrownBy(() -> FileRangeLock.of(file, 0, 2).lock(Duration.ofMillis(100)))
          .isInstanceOf(LeaseRepositoryFailure.class);
    }
  }
}
