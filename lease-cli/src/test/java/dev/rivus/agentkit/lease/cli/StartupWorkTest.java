/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.platform.SystemProcesses;
import org.junit.jupiter.api.Test;

class StartupWorkTest {

  @Test
  void sqliteIsLoadedOnlyForCommandsThatOpenTheDatabase() {
    assertThat(StartupWork.opensSqlite(new String[] {"run", "job", "--", "true"})).isTrue();
    assertThat(StartupWork.opensSqlite(new String[] {"status", "--db", "x.db", "job"})).isTrue();
    assertThat(StartupWork.opensSqlite(new String[] {"run", "--dir", "d", "job", "--", "true"}))
        .isFalse();
    assertThat(StartupWork.opensSqlite(new String[] {"list", "--dir=d"})).isFalse();
    // --dir after -- belongs to the command
    assertThat(StartupWork.opensSqlite(new String[] {"run", "job", "--", "ls", "--dir"})).isTrue();
    assertThat(StartupWork.opensSqlite(new String[] {"--help"})).isFalse();
    assertThat(StartupWork.opensSqlite(new String[] {})).isFalse();
  }

  @Test
  void theProcessFactsMadeInTheBackgroundAreTheSystemOnes() {
    SystemProcesses processes = StartupWork.start(new String[] {"--version"}).processes();
    SystemProcesses system = SystemProcesses.detect();

    assertThat(processes.currentProcess()).isEqualTo(system.currentProcess());
    assertThat(processes.judge(processes.currentProcess()))
        .isEqualTo(system.judge(system.currentProcess()));
  }

  @Test
  void anInterruptWhileWaitingIsKeptForTheCaller() {
    Thread.currentThread().interrupt();
    try {
      SystemProcesses processes = StartupWork.start(new String[] {"--version"}).processes();
      assertThat(processes.currentProcess().pid()).isEqualTo(ProcessHandle.current().pid());
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
