/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The child JVM harness: line protocol, signals and clean-up, with real child JVMs. */
@Tag("cross-process")
class ChildJvmTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void readsTheChildsLinesAndSendsItLines() throws Exception {
    try (ChildJvm child = ChildJvm.start(EchoMain.class, List.of())) {
      assertThat(child.awaitLine("HELLO ", PATIENCE)).isEqualTo("HELLO " + child.pid());

      child.send("ping");
      assertThat(child.awaitLine("ECHO ", PATIENCE)).isEqualTo("ECHO ping");
      child.send("EXIT 7");

      assertThat(child.awaitExit(PATIENCE)).isEqualTo(7);
      assertThat(child.stdoutLines()).containsExactly("HELLO " + child.pid(), "ECHO ping");
    }
  }

  @Test
  void suspendedChildAnswersOnlyAfterItIsResumed() throws Exception {
    try (ChildJvm child = ChildJvm.start(EchoMain.class, List.of())) {
      child.send("before");
      child.awaitLine("ECHO before", PATIENCE);

      child.suspend();
      child.send("while stopped");
      assertThatThrownBy(() -> child.awaitLine("ECHO while", Duration.ofMillis(500)))
          .as("an answer from a stopped child")
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("timed out");
      child.resume();

      assertThat(child.awaitLine("ECHO while", PATIENCE)).isEqualTo("ECHO while stopped");
    }
  }

  @Test
  void killEndsEvenAStoppedChild() throws Exception {
    try (ChildJvm child = ChildJvm.start(EchoMain.class, List.of())) {
      child.awaitLine("HELLO ", PATIENCE);
      child.suspend();

      int exitCode = child.kill();

      assertThat(exitCode).as("exit code after SIGKILL").isEqualTo(128 + 9);
      assertThat(child.isAlive()).isFalse();
    }
  }

  @Test
  void closeDestroysTheChildAndAwaitLineReportsItsOutput() throws Exception {
    long pid;
    try (ChildJvm child = ChildJvm.start(EchoMain.class, List.of())) {
      pid = child.pid();
      child.send("EXIT 3");
      assertThatThrownBy(() -> child.awaitLine("NEVER", PATIENCE))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("output ended")
          .hasMessageContaining("HELLO " + pid)
          .hasMessageContaining("echo child started");
    }
    try (ChildJvm child = ChildJvm.start(EchoMain.class, List.of())) {
      pid = child.pid();
      child.awaitLine("HELLO ", PATIENCE);
    }
    Optional<ProcessHandle> after = ProcessHandle.of(pid);
    assertThat(after.map(ProcessHandle::isAlive))
        .as("the closed child is alive")
        .isNotEqualTo(Optional.of(true));
  }
}
