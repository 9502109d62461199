/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The MariaDB server the tests use: {@code LEASE_TEST_MARIADB_URL}, by default a local one as root
 * without a password. Unreachable, the tests are reported as skipped, with the reason; on CI
 * ({@code CI=true}) they fail instead, so that a missing server is never mistaken for a pass.
 */
final class MariaDbServer {

  static final String URL =
      System.getenv()
          .getOrDefault("LEASE_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?user=root");

  private static volatile String unreachable = "";
  private static volatile boolean checked;

  private MariaDbServer() {}

  /** Tells whether the server answered, asking it once per test run. */
  static boolean isReachable() {
    if (!checked) {
      try (Connection connection = DriverManager.getConnection(URL)) {
        connection.isValid(5);
      } catch (SQLException e) {
        unreachable = e.getMessage();
      }
      checked = true;
    }
    return unreachable.isEmpty();
  }

  /** Skips the test (fails it on CI) unless the server answers. */
  static void requireReachable() {
    if (!isReachable()) {
      String message = "MariaDB at " + URL + " unreachable: " + unreachable;
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail(message + " (CI=true: the server is required)");
      }
      Assumptions.assumeTrue(false, message);
    }
  }

  /** A pool on the server, small and quick to close. */
  static HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setMaximumPoolSize(16);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(10_000);
    return new HikariDataSource(config);
  }

  /** Drops a table if it exists; the name comes from {@link PostgresServer#freshTableName()}. */
  static void drop(String table) throws SQLException {
    try (Connection connection = DriverManager.getConnection(URL);
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS " + table);
    }
  }

  /** Ends a database session, as a network failure or an administrator would. */
  static void kill(long connectionId) throws SQLException {
    try (Connection connection = DriverManager.getConnection(URL);
        Statement statement = connection.createStatement()) {
      statement.execute("KILL " + connectionId);
    }
  }
}
