package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.platform.Platform;
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
  void thePlatformMadeInTheBackgroundIsTheSystemOne() {
    Platform platform = StartupWork.start(new String[] {"--version"}).platform();

    assertThat(platform.currentProcess()).isEqualTo(Platform.system().currentProcess());
    assertThat(platform.liveness(platform.currentProcess()))
        .isEqualTo(Platform.system().liveness(Platform.system().currentProcess()));
  }

  @Test
  void anInterruptWhileWaitingIsKeptForTheCaller() {
    Thread.currentThread().interrupt();
    try {
      Platform platform = StartupWork.start(new String[] {"--version"}).platform();
      assertThat(platform.currentProcess().pid()).isEqualTo(ProcessHandle.current().pid());
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
