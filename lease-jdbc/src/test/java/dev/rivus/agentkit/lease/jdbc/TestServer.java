/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import dev.rivus.agentkit.lease.testsupport.TcpProxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A database server the tests use, a {@link SharedServer} (its URL from the environment, by default
 * a local one), with what these tests do on it. Unreachable, the tests are reported as skipped,
 * with the reason; on CI ({@code CI=true}) they fail instead, so that a missing server is never
 * mistaken for a pass.
 */
enum TestServer {
  POSTGRES(
      SharedServer.POSTGRES,
      "SELECT pg_terminate_backend(%d)",
      "SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL",
      "bytea",
      "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
          + " AND position(? in query) > 0"),
  MARIADB(
      SharedServer.MARIADB,
      "KILL %d",
      "SELECT ID, HOST FROM information_schema.PROCESSLIST",
      "VARBINARY(16)",
      "SELECT count(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'"
          + " AND LOCATE(?, trx_query) > 0");

  private final SharedServer shared;
  private final String url;
  private final String endSession;
  private final String sessionsWithClientPorts;
  private final String binaryType;
  private final String lockWaits;

  TestServer(
      SharedServer shared,
      String endSession,
      String sessionsWithClientPorts,
      String binaryType,
      String lockWaits) {
    this.shared = shared;
    this.url = shared.url();
    this.endSession = endSession;
    this.sessionsWithClientPorts = sessionsWithClientPorts;
    this.binaryType = binaryType;
    this.lockWaits = lockWaits;
  }

  /** The JDBC URL of the server. */
  String url() {
    return url;
  }

  /**
   * How many sessions wait for a row lock in a statement that names {@code text}, by the server's
   * own account.
   */
  long lockWaits(String text) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        java.sql.PreparedStatement select = connection.prepareStatement(lockWaits)) {
      select.setString(1, text);
      try (java.sql.ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /** The product name, as the driver reports it. */
  String product() {
    return shared.product();
  }

  /** Tells whether the server answered, asking it once per test run. */
  boolean isReachable() {
    return shared.isReachable();
  }

  /** Skips the test (fails it on CI) unless the server answers. */
  void requireReachable() {
    shared.requireReachable();
  }

  /** A pool on the server, small and quick to close. */
  HikariDataSource pool() {
    return pool(16, 10_000);
  }

  /** A pool of at most {@code size} connections that waits at most {@code timeoutMillis}. */
  HikariDataSource pool(int size, long timeoutMillis) {
    return pool(size, timeoutMillis, config -> {});
  }

  /** As {@link #pool(int, long)}, with what the application sets on the pool, as its isolation. */
  HikariDataSource pool(int size, long timeoutMillis, Consumer<HikariConfig> application) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(timeoutMillis);
    application.accept(config);
    return new HikariDataSource(config);
  }

  /** A column type for bytes, for a table of another shape than the repository's. */
  String binaryType() {
    return binaryType;
  }

  /** A table name no other test uses. */
  static String freshTableName() {
    return "lease_t_"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
  }

  /**
   * Drops a lease table and its generation table if they exist; the name comes from {@link
   * #freshTableName()}.
   */
  void drop(String table) throws SQLException {
    execute("DROP TABLE IF EXISTS " + table);
    execute("DROP TABLE IF EXISTS " + table + "_fence");
  }

  /** Runs one statement on a connection of its own. */
  void run(String sql) throws SQLException {
    execute(sql);
  }

  /** Ends a database session, as a network failure or an administrator would. */
  void endSession(long sessionId) throws SQLException {
    execute(String.format(Locale.ROOT, endSession, sessionId));
  }

  /**
   * Ends every session that the server reports as coming from one of {@code clientPorts} (a TCP
   * port on the client's side, for example a {@link TcpProxy}'s ports towards the server), as an
   * administrator would; returns the sessions it ended.
   */
  List<Long> endSessionsFromClientPorts(Set<Integer> clientPorts) throws SQLException {
    List<Long> sessions = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sessionsWithClientPorts)) {
      while (row.next()) {
        // PostgreSQL reports the port alone, MariaDB host:port.
        String client = String.valueOf(row.getObject(2));
        String port = client.substring(client.lastIndexOf(':') + 1);
        if (port.matches("[0-9]{1,5}") && clientPorts.contains(Integer.parseInt(port))) {
          sessions.add(row.getLong(1));
        }
      }
    }
    for (long session : sessions) {
      try {
        endSession(session);
      } catch (SQLException alreadyGone) {
        // MariaDB: "Unknown thread id" for a session that ended meanwhile
      }
    }
    return sessions;
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
