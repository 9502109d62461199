/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.platform.SystemProcesses;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupWorkTest {

  private static boolean opensSqlite(String... args) {
    return StartupWork.opensSqlite(args, Map.of());
  }

  @Test
  void sqliteIsLoadedOnlyForCommandsThatOpenTheDatabase() {
    assertThat(opensSqlite("run", "job", "--", "true")).isTrue();
    assertThat(opensSqlite("status", "--db", "x.db", "job")).isTrue();
    assertThat(opensSqlite("run", "--dir", "d", "job", "--", "true")).isFalse();
    assertThat(opensSqlite("list", "--dir=d")).isFalse();
    assertThat(opensSqlite("list", "--jdbc", "jdbc:postgresql://h/d")).isFalse();
    assertThat(opensSqlite("list", "--jdbc=jdbc:postgresql://h/d")).isFalse();
    assertThat(opensSqlite("list", "--store", "sqlite:x.db")).isTrue();
    assertThat(opensSqlite("list", "--store=SQLITE:x.db")).isTrue();
    assertThat(opensSqlite("list", "--store", "dir:d")).isFalse();
    assertThat(opensSqlite("list", "--store=jdbc:postgresql://h/d")).isFalse();
    assertThat(opensSqlite("list", "--store")).isFalse();
    // --dir after -- belongs to the command
    assertThat(opensSqlite("run", "job", "--", "ls", "--dir")).isTrue();
    assertThat(opensSqlite("--help")).isFalse();
    assertThat(opensSqlite()).isFalse();
  }

  @Test
  void sqliteIsNotLoadedWhenTheEnvironmentNamesADatabaseAndNoOptionNamesAFile() {
    Map<String, String> database = Map.of("LEASE_JDBC_URL", "jdbc:postgresql://h/d");

    assertThat(StartupWork.opensSqlite(new String[] {"list"}, database)).isFalse();
    assertThat(StartupWork.opensSqlite(new String[] {"list", "--db", "x.db"}, database)).isTrue();
    assertThat(StartupWork.opensSqlite(new String[] {"list"}, Map.of("LEASE_JDBC_URL", " ")))
        .isTrue();
  }

  @Test
  void theProcessFactsMadeInTheBackgroundAreTheSystemOnes() {
    SystemProcesses processes = StartupWork.start(new String[] {"--version"}, Map.of()).processes();
    SystemProcesses system = SystemProcesses.detect();

    assertThat(processes.currentProcess()).isEqualTo(system.currentProcess());
    assertThat(processes.judge(processes.currentProcess()))
        .isEqualTo(system.judge(system.currentProcess()));
  }

  @Test
  void anInterruptWhileWaitingIsKeptForTheCaller() {
    Thread.currentThread().interrupt();
    try {
      SystemProcesses processes =
          StartupWork.start(new String[] {"--version"}, Map.of()).processes();
      assertThat(processes.currentProcess().pid()).isEqualTo(ProcessHandle.current().pid());
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
