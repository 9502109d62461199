/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.store;

import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.testsupport.TcpProxy;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The driver's side of a database phase: a fresh lease table (and the side table and side log of
 * the fenced transactions) on the server, one {@link TcpProxy} per worker slot between its pool and
 * the server (the {@code lease run} slot's included), the workers' {@code jdbc.properties}; at the
 * end the side table's state in the driver's log, and the tables dropped. The driver's own
 * statements go straight to the server.
 *
 * <p>Not thread-safe: the driver's thread owns it.
 */
public final class DatabasePhase implements AutoCloseable {

  private final Database database;
  private final String url;
  private final String table;
  private final List<String> keys;
  private final List<TcpProxy> proxies = new ArrayList<>();

  private DatabasePhase(Database database, String url, String table, List<String> keys) {
    this.database = database;
    this.url = url;
    this.table = table;
    this.keys = keys;
  }

  /**
   * Creates the phase's tables and the slots' proxies, and tells the workers where to connect.
   *
   * @param database the server's product
   * @param url the server's JDBC URL (the shared server's, or a private one's)
   * @param phaseDirectory the phase's directory, where the workers' {@code jdbc.properties} goes
   * @param slots how many library worker slots: proxies {@code w1} to {@code w<slots>}, then one
   *     for the {@code lease run} slot, {@code r<slots + 1>} ({@link LeaseRunSlot})
   * @param keys the phase's keys, one counter row each in the side table
   * @return the phase's tables and proxies; close it to drop them
   * @throws IOException if {@code jdbc.properties} cannot be written
   * @throws SQLException if the tables cannot be made
   * @throws InterruptedException if interrupted while closing what was made
   */
  public static DatabasePhase prepare(
      Database database, String url, Path phaseDirectory, int slots, List<String> keys)
      throws IOException, SQLException, InterruptedException {
    String table =
        "lease_safety_"
            + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
    DatabasePhase phase = new DatabasePhase(database, url, table, keys);
    try {
      phase.createTables();
      URI server = Database.address(url);
      Map<String, String> urls = new LinkedHashMap<>();
      for (int slot = 1; slot <= slots; slot++) {
        TcpProxy proxy = TcpProxy.to(server.getHost(), server.getPort());
        phase.proxies.add(proxy);
        urls.put("w" + slot, database.workerUrl(url, proxy.port()));
      }
      TcpProxy leaseRun = TcpProxy.to(server.getHost(), server.getPort());
      phase.proxies.add(leaseRun);
      urls.put(LeaseRunSlot.name(slots + 1), database.workerUrl(url, leaseRun.port()));
      JdbcStore.describe(phaseDirectory, database, table, url, urls);
      return phase;
    } catch (IOException | SQLException | RuntimeException e) {
      phase.close();
      throw e;
    }
  }

  private void createTables() throws SQLException {
    JdbcLeaseRepository.open(
            new Direct(url), JdbcOptions.builder().tableName(table).createIfMissing(true).build())
        .close();
    execute(
        "CREATE TABLE "
            + JdbcStore.sideTable(table)
            + " (lease_key VARCHAR(16) PRIMARY KEY, n BIGINT NOT NULL)");
    execute(
        "CREATE TABLE "
            + JdbcStore.sideLog(table)
            + " (tx VARCHAR(64) PRIMARY KEY, lease_key VARCHAR(16) NOT NULL,"
            + " token BIGINT NOT NULL, value BIGINT NOT NULL)");
    for (String key : keys) {
      execute("INSERT INTO " + JdbcStore.sideTable(table) + " VALUES ('" + key + "', 0)");
    }
  }

  /**
   * Returns the phase's lease table.
   *
   * @return its name
   */
  public String table() {
    return table;
  }

  /**
   * Returns a slot's proxy to the server.
   *
   * @param index 0 for {@code w1}, ...; {@link #leaseRunIndex()} for the {@code lease run} slot's
   * @return the proxy
   */
  public TcpProxy proxy(int index) {
    return proxies.get(index);
  }

  /**
   * Returns the index of the {@code lease run} slot's proxy.
   *
   * @return the last index, after the library workers'
   */
  public int leaseRunIndex() {
    return proxies.size() - 1;
  }

  /**
   * Ends every session that comes through slot {@code index}'s proxy, as an administrator would
   * ({@code pg_terminate_backend}, {@code KILL}).
   *
   * @param index the slot's proxy, as for {@link #proxy(int)}
   * @return the ids of the sessions ended
   * @throws SQLException if the server cannot be asked
   */
  public List<Long> endSessions(int index) throws SQLException {
    Set<Integer> ports = proxies.get(index).serverSidePorts();
    try (Connection connection = DriverManager.getConnection(url)) {
      return database.shared().endSessionsFromClientPorts(connection, ports);
    }
  }

  /**
   * Writes the side table's final state to the driver's log: one line per key ({@code db: "side"},
   * its counter) and one per committed fenced transaction ({@code db: "sidelog"}).
   *
   * @param log the driver's log
   * @throws SQLException if the tables cannot be read
   */
  public void recordFinalState(JsonLines log) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT lease_key, n FROM " + JdbcStore.sideTable(table));
          ResultSet row = select.executeQuery()) {
        while (row.next()) {
          Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
          line.put("db", "side");
          line.put("key", row.getString(1));
          line.put("n", row.getLong(2));
          log.write(line);
        }
      }
      try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT tx, lease_key, token, value FROM " + JdbcStore.sideLog(table));
          ResultSet row = select.executeQuery()) {
        while (row.next()) {
          Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
          line.put("db", "sidelog");
          line.put("tx", row.getString(1));
          line.put("key", row.getString(2));
          line.put("token", row.getLong(3));
          line.put("value", row.getLong(4));
          log.write(line);
        }
      }
    }
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Closes the proxies and drops the phase's tables. */
  @Override
  public void close() throws InterruptedException {
    for (TcpProxy proxy : proxies) {
      proxy.close();
    }
    for (String name :
        List.of(table, table + "_fence", JdbcStore.sideTable(table), JdbcStore.sideLog(table))) {
      try {
        execute("DROP TABLE IF EXISTS " + name);
      } catch (SQLException gone) {
        // the server went away: nothing more to clean here
      }
    }
  }

  /** A data source of plain connections, for creating the schema once. */
  private static final class Direct implements DataSource {
    private final String url;

    Direct(String url) {
      this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
      return DriverManager.getConnection(url);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      return DriverManager.getConnection(url, username, password);
    }

    @Override
    public PrintWriter getLogWriter() {
      return new PrintWriter(System.err, true, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
