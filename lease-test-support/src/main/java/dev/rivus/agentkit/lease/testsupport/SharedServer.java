/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * A shared database server, as the tests, the safety harness and the benchmarks find it: named by
 * an environment variable, by default a local one with a database {@code test} (PostgreSQL with
 * trust authentication, MariaDB as root without a password). Shared: other tests use it at the same
 * time, so each works on tables of its own, and none restarts it (a {@link PrivateServer} is for
 * that).
 *
 * <p>The tests and the safety harness read {@code LEASE_TEST_POSTGRES_URL} and {@code
 * LEASE_TEST_MARIADB_URL} ({@link #url()}), the benchmarks {@code LEASE_BENCH_POSTGRES_URL} and
 * {@code LEASE_BENCH_MARIADB_URL} ({@link #benchmarkUrl()}); unset or blank, a variable means the
 * local server. A test that needs the server calls {@link #requireReachable()}: unreachable, the
 * test is skipped, or fails on CI ({@link TestEnvironment#skipOrFail}).
 *
 * <p>It also holds what differs between the two products in the SQL the tests, the harness and the
 * benchmarks run on them: ending a session ({@link #endSession(long)}), finding the sessions of
 * given client ports ({@link #endSessionsFromClientPorts(Set)}), dropping a lease table with its
 * generation table ({@link #dropLeaseTable(String)}), whether a table exists ({@link
 * #hasTable(String)}), sleeping in a statement ({@link #sleepStatement()}), counting lock waits
 * ({@link #lockWaits(String)}) and the drivers' timeout parameters ({@link #timeoutParameters()}).
 * Each operation runs on {@link #url()} on a connection of its own, or on a connection the caller
 * gives (to the benchmark URL, a pool's, or a {@link PrivateServer} of the same product).
 *
 * <p>It connects through {@link DriverManager}: the caller's class path must hold the JDBC driver.
 * Thread-safe.
 */
public enum SharedServer {
  /** PostgreSQL, by default at 127.0.0.1:5432. */
  POSTGRES(
      "PostgreSQL",
      "LEASE_TEST_POSTGRES_URL",
      "LEASE_BENCH_POSTGRES_URL",
      "jdbc:postgresql://127.0.0.1:5432/test?user=root",
      "SELECT pg_terminate_backend(%d)",
      "SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL",
      "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = ?"
          + " AND schemaname = ANY (current_schemas(false))",
      "SELECT pg_sleep(?)",
      "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
          + " AND position(? in query) > 0",
      "socketTimeout=10&connectTimeout=5"),
  /** MariaDB, by default at 127.0.0.1:3306. */
  MARIADB(
      "MariaDB",
      "LEASE_TEST_MARIADB_URL",
      "LEASE_BENCH_MARIADB_URL",
      "jdbc:mariadb://127.0.0.1:3306/test?user=root",
      "KILL %d",
      "SELECT ID, HOST FROM information_schema.PROCESSLIST",
      "SELECT count(*) FROM information_schema.tables WHERE table_name = ?"
          + " AND table_schema = DATABASE()",
      "SELECT SLEEP(?)",
      "SELECT count(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'"
          + " AND LOCATE(?, trx_query) > 0",
      "socketTimeout=10000&connectTimeout=5000");

  private final String product;
  private final String urlVariable;
  private final String benchmarkUrlVariable;
  private final String defaultUrl;
  private final String endSession;
  private final String sessionsWithClientPorts;
  private final String tableExists;
  private final String sleep;
  private final String lockWaits;
  private final String timeouts;

  /** Per server, why it did not answer when first asked, or "" if it did: once per JVM. */
  private static final ConcurrentMap<SharedServer, String> FIRST_ANSWER = new ConcurrentHashMap<>();

  SharedServer(
      String product,
      String urlVariable,
      String benchmarkUrlVariable,
      String defaultUrl,
      String endSession,
      String sessionsWithClientPorts,
      String tableExists,
      String sleep,
      String lockWaits,
      String timeouts) {
    this.product = product;
    this.urlVariable = urlVariable;
    this.benchmarkUrlVariable = benchmarkUrlVariable;
    this.defaultUrl = defaultUrl;
    this.endSession = endSession;
    this.sessionsWithClientPorts = sessionsWithClientPorts;
    this.tableExists = tableExists;
    this.sleep = sleep;
    this.lockWaits = lockWaits;
    this.timeouts = timeouts;
  }

  /**
   * The product's name, as its driver reports it and messages name it.
   *
   * @return {@code PostgreSQL} or {@code MariaDB}
   */
  public String product() {
    return product;
  }

  /**
   * The environment variable of the tests' and the harness's URL.
   *
   * @return {@code LEASE_TEST_POSTGRES_URL} or {@code LEASE_TEST_MARIADB_URL}
   */
  public String urlVariable() {
    return urlVariable;
  }

  /**
   * The JDBC URL the tests and the safety harness use: {@link #urlVariable()}'s value, else the
   * local server's.
   *
   * @return the URL
   */
  public String url() {
    return fromEnvironment(System.getenv(), urlVariable, defaultUrl);
  }

  /**
   * The environment variable of the benchmarks' URL.
   *
   * @return {@code LEASE_BENCH_POSTGRES_URL} or {@code LEASE_BENCH_MARIADB_URL}
   */
  public String benchmarkUrlVariable() {
    return benchmarkUrlVariable;
  }

  /**
   * The JDBC URL the benchmarks use: {@link #benchmarkUrlVariable()}'s value, else the local
   * server's.
   *
   * @return the URL
   */
  public String benchmarkUrl() {
    return fromEnvironment(System.getenv(), benchmarkUrlVariable, defaultUrl);
  }

  /** A variable's value; unset or blank, the default. The one reading of the URLs' variables. */
  static String fromEnvironment(Map<String, String> environment, String variable, String fallback) {
    String value = environment.get(variable);
    return value == null || value.isBlank() ? fallback : value;
  }

  /**
   * Asks the server at {@link #url()} now whether it answers.
   *
   * @return why it cannot be used (the driver's message), or {@code null} if it answered
   */
  public @Nullable String unreachable() {
    try (Connection connection = DriverManager.getConnection(url())) {
      return connection.isValid(5) ? null : "the connection is not valid";
    } catch (SQLException e) {
      return String.valueOf(e.getMessage());
    }
  }

  /**
   * Tells whether the server at {@link #url()} answered, asking it once per JVM.
   *
   * @return {@code true} if it answered
   */
  public boolean isReachable() {
    return firstAnswer().isEmpty();
  }

  private String firstAnswer() {
    return FIRST_ANSWER.computeIfAbsent(
        this,
        server -> {
          String unreachable = server.unreachable();
          return unreachable == null ? "" : unreachable;
        });
  }

  /**
   * Skips the calling test, or fails it on CI, unless the server answered ({@link #isReachable()}).
   *
   * @throws org.opentest4j.TestAbortedException if it did not, outside CI
   * @throws org.opentest4j.AssertionFailedError if it did not, on CI
   */
  public void requireReachable() {
    if (!isReachable()) {
      TestEnvironment.skipOrFail(
          product + " at " + url() + " unreachable: " + firstAnswer(), "the server is required");
    }
  }

  /**
   * A table name no other test or run uses: {@code prefix} and 1 to 16 random hexadecimal digits.
   *
   * @param prefix the caller's, as {@code lease_t_}: letters, digits and underscores only
   * @return the name, letters, digits and underscores only
   */
  public static String freshTableName(String prefix) {
    return prefix
        + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
  }

  /**
   * Opens a connection to {@link #url()}, in auto-commit mode.
   *
   * @return the connection, for the caller to close
   * @throws SQLException if the server cannot be reached
   */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url());
  }

  /**
   * Runs one statement on {@link #url()}, on a connection of its own.
   *
   * @param sql the statement
   * @throws SQLException if it fails
   */
  public void execute(String sql) throws SQLException {
    try (Connection connection = connect()) {
      execute(connection, sql);
    }
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /**
   * The statement that ends session {@code sessionId}, as a network failure or an administrator
   * would: {@code SELECT pg_terminate_backend(ID)} or {@code KILL ID}.
   *
   * @param sessionId the server's id of the session (PostgreSQL's pid, MariaDB's thread id)
   * @return the statement
   */
  public String endSessionStatement(long sessionId) {
    return String.format(Locale.ROOT, endSession, sessionId);
  }

  /**
   * Ends a session on {@link #url()} ({@link #endSessionStatement(long)}).
   *
   * @param sessionId the server's id of the session
   * @throws SQLException if the statement fails (on MariaDB, for a session that already ended)
   */
  public void endSession(long sessionId) throws SQLException {
    execute(endSessionStatement(sessionId));
  }

  /**
   * Ends every session on {@link #url()} that comes from one of {@code clientPorts}, as {@link
   * #endSessionsFromClientPorts(Connection, Set)}.
   *
   * @param clientPorts TCP ports on the clients' side, as a {@link TcpProxy}'s towards the server
   * @return the ids of the sessions it ended
   * @throws SQLException if the server cannot be asked
   */
  public List<Long> endSessionsFromClientPorts(Set<Integer> clientPorts) throws SQLException {
    try (Connection connection = connect()) {
      return endSessionsFromClientPorts(connection, clientPorts);
    }
  }

  /**
   * Ends every session that the server of {@code connection} reports as coming from one of {@code
   * clientPorts} (from {@code pg_stat_activity}, or MariaDB's {@code
   * information_schema.PROCESSLIST}), as an administrator would; a session that ended meanwhile is
   * passed over.
   *
   * @param connection a connection to a server of this product, not through the ports
   * @param clientPorts TCP ports on the clients' side, as a {@link TcpProxy}'s towards the server
   * @return the ids of the sessions it ended
   * @throws SQLException if the server cannot be asked
   */
  public List<Long> endSessionsFromClientPorts(Connection connection, Set<Integer> clientPorts)
      throws SQLException {
    List<Long> sessions = new ArrayList<>();
    try (Statement statement = connection.createStatement();
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
        execute(connection, endSessionStatement(session));
      } catch (SQLException alreadyGone) {
        // MariaDB: "Unknown thread id" for a session that ended meanwhile
      }
    }
    return sessions;
  }

  /**
   * Drops a lease table on {@link #url()}, as {@link #dropLeaseTable(Connection, String)}.
   *
   * @param table the lease table's name
   * @throws SQLException if a statement fails
   */
  public void dropLeaseTable(String table) throws SQLException {
    try (Connection connection = connect()) {
      dropLeaseTable(connection, table);
    }
  }

  /**
   * Drops a lease table and its generation table {@code TABLE_fence}, if they exist, and on MariaDB
   * its acquisition procedure {@code TABLE_acq}.
   *
   * @param connection a connection to a server of this product
   * @param table the lease table's name, as from {@link #freshTableName(String)}
   * @throws SQLException if a statement fails
   */
  public void dropLeaseTable(Connection connection, String table) throws SQLException {
    execute(connection, "DROP TABLE IF EXISTS " + table);
    execute(connection, "DROP TABLE IF EXISTS " + table + "_fence");
    if (this == MARIADB) {
      execute(connection, "DROP PROCEDURE IF EXISTS " + table + "_acq");
    }
  }

  /**
   * Tells whether a table of this name exists on {@link #url()}, as {@link #hasTable(Connection,
   * String)}.
   *
   * @param table the table's name
   * @return {@code true} if it exists
   * @throws SQLException if the server cannot be asked
   */
  public boolean hasTable(String table) throws SQLException {
    try (Connection connection = connect()) {
      return hasTable(connection, table);
    }
  }

  /**
   * Tells whether a table of this name exists in the connection's database (MariaDB) or on its
   * schema search path (PostgreSQL).
   *
   * @param connection a connection to a server of this product
   * @param table the table's name, as the server stores it (unquoted: lower case)
   * @return {@code true} if it exists
   * @throws SQLException if the server cannot be asked
   */
  public boolean hasTable(Connection connection, String table) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(tableExists)) {
      select.setString(1, table);
      try (ResultSet row = select.executeQuery()) {
        return row.next() && row.getInt(1) > 0;
      }
    }
  }

  /**
   * A statement that sleeps on the server for its one parameter, in seconds (a {@code double}):
   * {@code SELECT pg_sleep(?)} or {@code SELECT SLEEP(?)}.
   *
   * @return the statement, to prepare
   */
  public String sleepStatement() {
    return sleep;
  }

  /**
   * Counts on {@link #url()} the sessions that wait for a row lock, as {@link
   * #lockWaits(Connection, String)}.
   *
   * @param text what the waiting statement contains
   * @return how many sessions wait
   * @throws SQLException if the server cannot be asked
   */
  public long lockWaits(String text) throws SQLException {
    try (Connection connection = connect()) {
      return lockWaits(connection, text);
    }
  }

  /**
   * Counts the sessions that wait for a row lock in a statement that contains {@code text}, by the
   * server's own account ({@code pg_stat_activity}, MariaDB's {@code
   * information_schema.INNODB_TRX}).
   *
   * @param connection a connection to a server of this product
   * @param text what the waiting statement contains
   * @return how many sessions wait
   * @throws SQLException if the server cannot be asked
   */
  public long lockWaits(Connection connection, String text) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(lockWaits)) {
      select.setString(1, text);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /**
   * The driver's URL parameters for a socket timeout of 10 s and a connect timeout of 5 s, in the
   * driver's units, so that a statement on a cut network fails instead of hanging: {@code
   * socketTimeout=10&connectTimeout=5} (PostgreSQL, seconds) or {@code
   * socketTimeout=10000&connectTimeout=5000} (MariaDB, milliseconds).
   *
   * @return the parameters, to append to a URL after {@code ?} or {@code &}
   */
  public String timeoutParameters() {
    return timeouts;
  }
}
