/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A database server the tool's tests run {@code lease --jdbc} against: a {@link SharedServer} (the
 * servers and variables of lease-jdbc's tests), with the tables these tests look at. Unreachable,
 * the tests are reported as skipped, with the reason; on CI ({@code CI=true}) they fail instead, so
 * that a missing server is never mistaken for a pass. Each test uses tables of its own, and drops
 * only those.
 */
enum TestDatabase {
  POSTGRES(SharedServer.POSTGRES),
  MARIADB(SharedServer.MARIADB);

  private final SharedServer shared;
  private final String url;

  TestDatabase(SharedServer shared) {
    this.shared = shared;
    this.url = shared.url();
  }

  /** The server's URL, as {@code --jdbc} takes it. */
  String url() {
    return url;
  }

  /** The product name the tool uses in its messages. */
  String product() {
    return shared.product();
  }

  /** Skips the test (fails it on CI) unless the server answers. */
  void requireReachable() {
    shared.requireReachable();
  }

  /** A table name no other test uses. */
  static String freshTableName() {
    return "lease_cli_"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
  }

  /**
   * Drops a lease table made by a test, and the companion tables a lease table may have (its
   * generation table {@code TABLE_fence}), if they exist.
   */
  void dropLeaseTable(String table) throws SQLException {
    execute("DROP TABLE IF EXISTS " + table);
    execute("DROP TABLE IF EXISTS " + table + "_fence");
  }

  /** Creates a table of this name that is not a lease table, as another application would. */
  void createForeignTable(String table) throws SQLException {
    execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, note VARCHAR(20))");
    execute("INSERT INTO " + table + " VALUES (1, 'theirs')");
  }

  /** Whether a table of this name exists in the URL's database (or schema search path). */
  boolean hasTable(String table) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(existsQuery(table))) {
      return row.next() && row.getInt(1) > 0;
    }
  }

  private String existsQuery(String table) {
    // The name comes from freshTableName(): letters, digits and underscores only.
    return this == POSTGRES
        ? "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = '"
            + table
            + "' AND schemaname = ANY (current_schemas(false))"
        : "SELECT count(*) FROM information_schema.tables WHERE table_name = '"
            + table
            + "' AND table_schema = DATABASE()";
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
