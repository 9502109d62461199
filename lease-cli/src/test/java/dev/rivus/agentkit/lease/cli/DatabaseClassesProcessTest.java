/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start of {@code lease} on SQLite or files loads no class of the database path: not the JDBC
 * repository, the pool or a driver. Each takes start time, and most runs never use them.
 */
class DatabaseClassesProcessTest {

  /**
   * The classes of the database path, as -verbose:class names them: all of lease-jdbc's but its
   * store provider, which every look for the stores instantiates and which names none of them.
   */
  private static final Pattern DATABASE_CLASS =
      Pattern.compile(
          "\\b(com\\.zaxxer\\.hikari|org\\.postgresql|org\\.mariadb"
              + "|dev\\.rivus\\.agentkit\\.lease\\.jdbc\\.(?!provider\\.JdbcStoreProvider\\b))");

  private static final String PROVIDER = "dev.rivus.agentkit.lease.jdbc.provider.JdbcStoreProvider";

  @TempDir Path temp;

  private static List<String> loadedBy(String... args) {
    LeaseTool lease = LeaseTool.start(List.of("-verbose:class"), Map.of(), args);
    lease.closeStdin();
    lease.awaitExit();
    return lease.stdoutLines().stream().filter(line -> line.startsWith("[")).toList();
  }

  @Test
  void aRunOnSqliteAndAListOfFilesLoadNoDatabaseClass() {
    List<String> sqlite =
        loadedBy("run", "--db", temp.resolve("leases.db").toString(), "k", "--", "true");
    List<String> files = loadedBy("list", "--dir", temp.resolve("files").toString());
    List<String> store =
        loadedBy("list", "--store", "sqlite:" + temp.resolve("leases.db"), "--json");

    assertThat(sqlite).as("classes loaded").hasSizeGreaterThan(1000);
    assertThat(sqlite).noneMatch(line -> DATABASE_CLASS.matcher(line).find());
    assertThat(sqlite)
        .as("the provider, and nothing behind it")
        .anyMatch(l -> l.contains(PROVIDER));
    assertThat(files).hasSizeGreaterThan(1000);
    assertThat(files).noneMatch(line -> DATABASE_CLASS.matcher(line).find());
    assertThat(store).hasSizeGreaterThan(1000);
    assertThat(store).noneMatch(line -> DATABASE_CLASS.matcher(line).find());
  }

  @Test
  void aCommandOnADatabaseLoadsThem() {
    // Nothing listens on port 1: the command fails, after loading the pool and the driver.
    List<String> database = loadedBy("list", "--jdbc", "jdbc:postgresql://127.0.0.1:1/none");

    assertThat(database).anyMatch(line -> line.contains("com.zaxxer.hikari.HikariDataSource"));
    assertThat(database).anyMatch(line -> line.contains("org.postgresql.Driver"));
  }
}
