/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to the real tool: one clear line on stderr, the documented exit code, no stack trace,
 * and the command never run.
 */
class BadInputProcessTest {

  private static final String COMMAND = "echo the command ran";

  @TempDir Path temp;
  private Path database;

  @BeforeEach
  void prepare() throws IOException, SQLException {
    database = temp.resolve("leases.db");
    Files.writeString(temp.resolve("a-file"), "not a directory", StandardCharsets.UTF_8);
    // Longer than an SQLite header (100 bytes), so that only its content says it is no database.
    Files.writeString(
        temp.resolve("text.db"), "just some text\n".repeat(20), StandardCharsets.UTF_8);
    Files.writeString(temp.resolve("short.db"), "just some text\n", StandardCharsets.UTF_8);
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + temp.resolve("other.db"));
        Statement sql = other.createStatement()) {
      sql.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)");
    }
  }

  static Stream<Arguments> badInputs() {
    return Stream.of(
        Arguments.of(
            "an unknown option",
            List.of("run", "--bogus", "DB", "job", "--", "CMD"),
            64,
            "--bogus"),
        Arguments.of("a missing --", List.of("run", "DB", "job", "CMD"), 64, "put -- between KEY"),
        Arguments.of(
            "a missing -- before a plain command",
            List.of("run", "DB", "job", "true"),
            64,
            "put -- between KEY"),
        Arguments.of(
            "an empty key", List.of("run", "DB", "", "--", "CMD"), 64, "key must not be empty"),
        Arguments.of(
            "ttl < 2 x heartbeat",
            List.of("run", "DB", "--ttl", "10s", "--heartbeat", "6s", "job", "--", "CMD"),
            64,
            "--heartbeat 6s must be at most half the --ttl 10s (at most 5s)"),
        Arguments.of(
            "a TTL below the 1s floor",
            List.of("run", "DB", "--ttl", "1ms", "job", "--", "CMD"),
            64,
            "--ttl 1ms is below the minimum of 1s: a holder gives its lease up a tenth of the TTL"
                + " early"),
        Arguments.of(
            "a TTL below the floor that leaves the heartbeat to its default",
            List.of("run", "DB", "--ttl", "999ms", "job", "--", "CMD"),
            64,
            "--ttl 999ms is below the minimum of 1s"),
        Arguments.of(
            "a heartbeat below the 10ms floor",
            List.of("run", "DB", "--heartbeat", "1ms", "job", "--", "CMD"),
            64,
            "--heartbeat 1ms is below the minimum of 10ms"),
        Arguments.of(
            "a malformed duration",
            List.of("run", "DB", "--wait", "soon", "job", "--", "CMD"),
            64,
            "'soon' is not a duration"),
        Arguments.of(
            "an unwritable database path",
            List.of("run", "--db", "TEMP/a-file/leases.db", "job", "--", "CMD"),
            74,
            "leases.db' is not a directory: "),
        Arguments.of(
            "a file that is not a database",
            List.of("run", "--db", "TEMP/text.db", "job", "--", "CMD"),
            74,
            "not an SQLite database"),
        Arguments.of(
            "a text file too short to be a database",
            List.of("run", "--db", "TEMP/short.db", "job", "--", "CMD"),
            74,
            "short.db is not a lease database: it is not an SQLite database"),
        Arguments.of(
            "a database that is not a lease database",
            List.of("run", "--db", "TEMP/other.db", "job", "--", "CMD"),
            74,
            "is not a lease database"),
        Arguments.of(
            "an unwritable lease directory",
            List.of("run", "--dir", "TEMP/a-file/leases", "job", "--", "CMD"),
            74,
            "leases' is not a directory: "),
        Arguments.of(
            "an existing file as the lease directory",
            List.of("run", "--dir", "TEMP/a-file", "job", "--", "CMD"),
            74,
            "a-file: it exists and is not a directory"),
        Arguments.of(
            "an existing file as the lease directory of list",
            List.of("list", "--dir", "TEMP/a-file"),
            74,
            "a-file is not a directory"),
        Arguments.of(
            "a reserved word as the table",
            // Refused before any connection: no server listens on port 1.
            List.of("list", "--jdbc", "jdbc:postgresql://127.0.0.1:1/x", "--jdbc-table", "select"),
            64,
            "--jdbc-table: table name 'select' is not allowed: it is a reserved word of SQL"),
        Arguments.of("an empty --db", List.of("run", "--db", "", "job", "--", "CMD"), 64, "--db"),
        Arguments.of("an empty --db for list", List.of("list", "--db", ""), 64, "--db"),
        Arguments.of("an empty --dir", List.of("status", "--dir", "", "job"), 64, "--dir"),
        Arguments.of(
            "both --db and --dir",
            List.of("run", "DB", "--dir", "TEMP/dir", "job", "--", "CMD"),
            64,
            "mutually exclusive"),
        Arguments.of("a missing subcommand", List.of(), 64, "missing COMMAND"),
        // One like no command, so that picocli adds no "Did you mean" line (InProcessCommandsTest).
        Arguments.of(
            "an unknown subcommand",
            List.of("rnu", "job"),
            64,
            "lease: unknown command 'rnu' (see 'lease --help')"),
        Arguments.of(
            "release without --generation", List.of("release", "DB", "job"), 64, "--generation"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void badInputGivesOneClearLineAndTheDocumentedCode(
      String what, List<String> template, int code, String message) {
    List<String> args = new ArrayList<>();
    for (String arg : template) {
      if (arg.equals("DB")) {
        args.add("--db");
        args.add(database.toString());
      } else if (arg.equals("CMD")) {
        args.addAll(List.of("sh", "-c", COMMAND));
      } else {
        args.add(arg.replace("TEMP", temp.toString()));
      }
    }

    LeaseTool lease = LeaseTool.run(args.toArray(String[]::new));

    assertThat(lease.awaitExit()).as("%s", lease).isEqualTo(code);
    assertThat(lease.stderrLines())
        .as("%s", lease)
        .singleElement()
        .asString()
        .startsWith("lease")
        .contains(message)
        .doesNotContain("\tat ", "Caused by", "java.lang.")
        .satisfies(
            line ->
                assertThat(line.split(java.util.regex.Pattern.quote(message), -1))
                    .as("'%s' is said once", message)
                    .hasSize(2));
    assertThat(lease.stdout()).doesNotContain("the command ran");
  }

  @Test
  void aNativeLibraryThatCannotLoadIsARepositoryFailureWithoutAStackTrace() {
    // Outside an installation sqlite-jdbc extracts its library to java.io.tmpdir: one that does
    // not exist leaves it no library.
    LeaseTool lease =
        LeaseTool.start(
            Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + temp.resolve("no-such-dir")),
            "run",
            "--db",
            database.toString(),
            "job",
            "--",
            "sh",
            "-c",
            COMMAND);
    lease.closeStdin();

    assertThat(lease.awaitExit()).as("%s", lease).isEqualTo(74);
    assertThat(lease.stderrLines())
        .as("%s", lease)
        .allSatisfy(line -> assertThat(line).doesNotContain("\tat ", "Caused by"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "lease run: repository failure: cannot load SQLite's native library"));
    assertThat(lease.stdout()).doesNotContain("the command ran");
  }
}
