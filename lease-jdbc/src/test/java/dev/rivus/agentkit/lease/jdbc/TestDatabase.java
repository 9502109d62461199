/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A fresh lease table on a test server, with a pool, for one test; closing it closes the pool and
 * drops the tables, including a side table for the work of fenced transactions.
 */
final class TestDatabase implements AutoCloseable {

  final TestServer server;
  final HikariDataSource pool;
  final String table = TestServer.freshTableName();

  private TestDatabase(TestServer server, HikariDataSource pool) {
    this.server = server;
    this.pool = pool;
  }

  /** Skips the test (fails it on CI) unless the server answers. */
  static TestDatabase on(TestServer server) {
    server.requireReachable();
    return new TestDatabase(server, server.pool());
  }

  /** With a pool of its own size and wait. */
  static TestDatabase on(TestServer server, int poolSize, long timeoutMillis) {
    server.requireReachable();
    return new TestDatabase(server, server.pool(poolSize, timeoutMillis));
  }

  /** With a pool on which the application set something of its own, as the isolation level. */
  static TestDatabase on(TestServer server, Consumer<HikariConfig> application) {
    server.requireReachable();
    return new TestDatabase(server, server.pool(16, 10_000, application));
  }

  /** The options of this database's table, to add to and build. */
  JdbcOptions.Builder options() {
    return JdbcOptions.builder().tableName(table);
  }

  /** Opens the repository on this database's table, creating it if it is missing. */
  JdbcLeaseRepository create() {
    return JdbcLeaseRepository.open(pool, options().createIfMissing(true).build());
  }

  /** The side table fenced transactions write to: one integer column {@code n}. */
  String sideTable() {
    return table + "_side";
  }

  void createSideTable() throws SQLException {
    server.run("CREATE TABLE " + sideTable() + " (n INTEGER NOT NULL)");
  }

  long sideRows() throws SQLException {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT count(*) FROM " + sideTable())) {
      row.next();
      return row.getLong(1);
    }
  }

  /** How many sessions wait for a lock in a statement that contains {@code statement}. */
  long lockWaits(String statement) throws SQLException {
    try (Connection connection = pool.getConnection()) {
      return server.shared().lockWaits(connection, statement);
    }
  }

  /** Inserts a row of the side table on the connection. */
  int insertSide(Connection connection, int n) throws SQLException {
    try (java.sql.PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + sideTable() + " (n) VALUES (?)")) {
      insert.setInt(1, n);
      return insert.executeUpdate();
    }
  }

  /**
   * Starts a fenced transaction of {@code lease} on a thread of its own that inserts one side row,
   * then waits until {@code finish} is counted down (at most a minute) before it commits; returns
   * once the transaction holds the generation row's lock and has written its row.
   */
  java.util.concurrent.CompletableFuture<Integer> holdFencedTransaction(
      JdbcLeaseRepository repository, dev.rivus.agentkit.lease.Lease lease, CountDownLatch finish)
      throws InterruptedException {
    CountDownLatch inside = new CountDownLatch(1);
    java.util.concurrent.CompletableFuture<Integer> fenced =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                return repository.inFencedTransaction(
                    lease,
                    c -> {
                      int n = insertSide(c, 1);
                      inside.countDown();
                      awaitFinish(finish);
                      return n;
                    });
              } catch (SQLException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            },
            TestThreads.EACH);
    if (!inside.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the fenced transaction did not start within 30 s: " + fenced);
    }
    return fenced;
  }

  private static void awaitFinish(CountDownLatch finish) {
    try {
      if (!finish.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the fenced transaction finish");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws SQLException {
    pool.close();
    server.drop(table);
    server.run("DROP TABLE IF EXISTS " + sideTable());
  }
}
