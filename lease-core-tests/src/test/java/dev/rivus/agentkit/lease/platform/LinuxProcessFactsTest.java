/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LinuxProcessFacts} against this machine's real {@code /proc}, with a real child process.
 */
class LinuxProcessFactsTest {

  private static final Path PROC = Path.of("/proc");

  private LinuxProcessFacts facts;
  private Process child;

  @BeforeEach
  void startChild() throws IOException {
    assumeTrue(
        System.getProperty("os.name", "").startsWith("Linux")
            && Files.isReadable(PROC.resolve("self/stat")),
        "needs Linux with a readable /proc");
    facts = new LinuxProcessFacts(PROC);
    child = new ProcessBuilder("sleep", "60").start();
  }

  @AfterEach
  void stopChild() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** The child as a lease record written by the child itself would name it. */
  private ProcessIdentity childIdentity(String start) {
    ProcessIdentity self = facts.currentProcess();
    return new ProcessIdentity(self.host(), self.bootId(), self.pidNamespace(), child.pid(), start);
  }

  private String childStart() {
    String start = facts.processStart(child.pid());
    assertThat(start).as("start time of child %d", child.pid()).matches("ticks:[0-9]+");
    return start;
  }

  private static String otherTicks(String start) {
    return "ticks:" + (Long.parseLong(start.substring("ticks:".length())) + 1);
  }

  private void killChild() throws InterruptedException {
    child.destroyForcibly();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child exited").isTrue();
  }

  @Test
  void currentIdentityHasABootIdPidNamespaceAndStartTime() {
    ProcessIdentity self = facts.currentProcess();

    assertThat(self.bootId())
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    assertThat(self.pidNamespace()).matches("pid:\\[[0-9]+\\]");
    assertThat(self.pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(self.processStart()).matches("ticks:[0-9]+");
  }

  @Test
  void currentIdentityIsWhatAFreshInstanceReads() {
    assertThat(new LinuxProcessFacts(PROC).currentProcess()).isEqualTo(facts.currentProcess());
  }

  @Test
  void judgesTheCurrentProcessAlive() {
    assertThat(facts.liveness(facts.currentProcess())).isEqualTo(Liveness.ALIVE);
  }

  @Test
  void judgesARunningChildAliveAndGoneOnceKilled() throws InterruptedException {
    ProcessIdentity running = childIdentity(childStart());

    assertThat(facts.liveness(running)).isEqualTo(Liveness.ALIVE);

    killChild();

    assertThat(facts.liveness(running)).isEqualTo(Liveness.GONE);
  }

  @Test
  void judgesARecordWithTheChildsPidButAnotherStartTimeGone() {
    ProcessIdentity earlierOwnerOfThePid = childIdentity(otherTicks(childStart()));

    assertThat(facts.liveness(earlierOwnerOfThePid)).isEqualTo(Liveness.GONE);
  }

  @Test
  void cannotJudgeAHolderOfAnotherBoot() throws InterruptedException {
    ProcessIdentity gone = childIdentity(childStart());
    killChild();
    ProcessIdentity otherBoot =
        new ProcessIdentity(
            gone.host(),
            "00000000-0000-0000-0000-000000000000",
            gone.pidNamespace(),
            gone.pid(),
            gone.processStart());

    assertThat(facts.liveness(gone)).isEqualTo(Liveness.GONE);
    assertThat(facts.liveness(otherBoot)).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void cannotJudgeAHolderInAnotherPidNamespace() throws InterruptedException {
    ProcessIdentity gone = childIdentity(childStart());
    killChild();
    ProcessIdentity otherNamespace =
        new ProcessIdentity(gone.host(), gone.bootId(), "pid:[1]", gone.pid(), gone.processStart());

    assertThat(facts.liveness(gone)).isEqualTo(Liveness.GONE);
    assertThat(facts.liveness(otherNamespace)).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void cannotJudgeAHolderWhoseStartTimeIsUnknown() throws InterruptedException {
    ProcessIdentity gone = childIdentity(childStart());
    killChild();
    ProcessIdentity noStart =
        new ProcessIdentity(gone.host(), gone.bootId(), gone.pidNamespace(), gone.pid(), null);

    assertThat(facts.liveness(gone)).isEqualTo(Liveness.GONE);
    assertThat(facts.liveness(noStart)).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void judgesLivenessTheSameWayWhateverTheHostNameSays() {
    ProcessIdentity renamed =
        new ProcessIdentity(
            "renamed-host",
            facts.currentProcess().bootId(),
            facts.currentProcess().pidNamespace(),
            child.pid(),
            childStart());

    assertThat(facts.liveness(renamed)).isEqualTo(Liveness.ALIVE);
  }
}
