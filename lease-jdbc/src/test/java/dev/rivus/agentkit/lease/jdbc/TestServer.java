/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import dev.rivus.agentkit.lease.testsupport.TcpProxy;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A database server the tests use, a {@link SharedServer} (its URL from the environment, by default
 * a local one), with what these tests do on it. Unreachable, the tests are reported as skipped,
 * with the reason; on CI ({@code CI=true}) they fail instead, so that a missing server is never
 * mistaken for a pass. What is the server's own (its SQL) is the {@link SharedServer}'s; what is
 * these tests' own is here: HikariCP pools and a column type for bytes.
 */
enum TestServer {
  POSTGRES(SharedServer.POSTGRES, "bytea"),
  MARIADB(SharedServer.MARIADB, "VARBINARY(16)");

  private final SharedServer shared;
  private final String url;
  private final String binaryType;

  TestServer(SharedServer shared, String binaryType) {
    this.shared = shared;
    this.url = shared.url();
    this.binaryType = binaryType;
  }

  /** The shared server this is. */
  SharedServer shared() {
    return shared;
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
    return shared.lockWaits(text);
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
    return SharedServer.freshTableName("lease_t_");
  }

  /**
   * Drops a lease table and its generation table if they exist; the name comes from {@link
   * #freshTableName()}.
   */
  void drop(String table) throws SQLException {
    shared.dropLeaseTable(table);
  }

  /** Runs one statement on a connection of its own. */
  void run(String sql) throws SQLException {
    shared.execute(sql);
  }

  /** Ends a database session, as a network failure or an administrator would. */
  void endSession(long sessionId) throws SQLException {
    shared.endSession(sessionId);
  }

  /**
   * Ends every session that the server reports as coming from one of {@code clientPorts} (a TCP
   * port on the client's side, for example a {@link TcpProxy}'s ports towards the server), as an
   * administrator would; returns the sessions it ended.
   */
  List<Long> endSessionsFromClientPorts(Set<Integer> clientPorts) throws SQLException {
    return shared.endSessionsFromClientPorts(clientPorts);
  }
}
