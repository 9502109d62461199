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
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server the tests use: {@code LEASE_TEST_POSTGRES_URL}, by default a local one with
 * trust authentication. Unreachable, the tests are reported as skipped, with the reason; on CI
 * ({@code CI=true}) they fail instead, so that a missing server is never mistaken for a pass.
 */
final class PostgresServer {

  static final String URL =
      System.getenv()
          .getOrDefault(
              "LEASE_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=root");

  private static volatile String unreachable = "";
  private static volatile boolean checked;

  private PostgresServer() {}

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
      String message = "PostgreSQL at " + URL + " unreachable: " + unreachable;
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

  /** A table name no other test uses. */
  static String freshTableName() {
    return "lease_t_"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
  }

  /** Drops a table if it exists; the name comes from {@link #freshTableName()}. */
  static void drop(String table) throws SQLException {
    try (Connection connection = DriverManager.getConnection(URL);
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS " + table);
    }
  }

  /** Ends a database session, as a network failure or an administrator would. */
  static void terminate(long backendPid) throws SQLException {
    try (Connection connection = DriverManager.getConnection(URL);
        Statement statement = connection.createStatement()) {
      statement.execute("SELECT pg_terminate_backend(" + backendPid + ")");
    }
  }
}
