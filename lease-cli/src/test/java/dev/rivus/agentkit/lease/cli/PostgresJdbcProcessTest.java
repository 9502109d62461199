/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcProcessTest} on PostgreSQL, and what only PostgreSQL's trust authentication lets a
 * test show: a password that works, yet appears nowhere the tool shows things.
 */
class PostgresJdbcProcessTest extends JdbcProcessTest {

  @Override
  SharedServer database() {
    return SharedServer.POSTGRES;
  }

  @Test
  void aLeaseHeldWithAPasswordShowsItNeitherInStatusNorInTheProcessList() throws Exception {
    String secret = secret();
    String url = database().url();
    Map<String, String> environment =
        Map.of(
            "LEASE_JDBC_URL",
            url + (url.contains("?") ? "&" : "?") + "password=" + secret,
            "LEASE_JDBC_PASSWORD",
            secret + "-other");
    try (LeaseTool holder =
        LeaseTool.start(
            environment,
            "run",
            "--jdbc-table",
            table,
            "held",
            "--",
            "sh",
            "-c",
            "echo running; read line")) {
      holder.awaitStdout("running");

      String processes = commandLines(holder.handle());
      assertThat(processes).contains(" held -- sh -c").doesNotContain(secret);
      LeaseTool status = LeaseTool.run(environment, "status", "--jdbc-table", table, "held");
      LeaseTool json = LeaseTool.run(environment, "list", "--jdbc-table", table, "--json");
      for (LeaseTool run : List.of(status, json)) {
        assertThat(run.awaitExit()).as("%s", run).isZero();
        assertThat(run.stdout()).contains("held").doesNotContain(secret);
        assertThat(run.stderr()).isEmpty();
      }
      holder.writeLine("done");
      assertThat(holder.awaitExit()).as("%s", holder).isZero();
      assertThat(holder.stdout() + holder.stderr()).doesNotContain(secret);
    }
  }

  /** The command lines of a process and its descendants, as a process list shows them. */
  private static String commandLines(ProcessHandle root) {
    return Stream.concat(Stream.of(root), root.descendants())
        .map(process -> commandLine(process.pid()))
        .collect(Collectors.joining("\n"));
  }

  private static String commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (IOException gone) {
      return "";
    }
  }
}
