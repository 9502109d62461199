/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.store;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.safety.JsonLines;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Random;

/**
 * The databases' protected write: a fenced transaction ({@code inFencedTransaction(token, ...)}) on
 * the side table of the phase's database that reads the key's counter, sleeps on the server (10–60
 * ms, the transaction open), writes the counter plus one, and logs itself in the side log with its
 * id, key, token and value. Two transactions that overlapped would write the same value; one
 * committed after its lease was refused would leave a row no commit reported. The worker logs
 * {@code tx_start}, then {@code tx_commit} (with the value), {@code tx_refused} ({@code LeaseLost},
 * with the reason) or {@code tx_failed} ({@code SQLException}, the outcome of a commit then being
 * unknown); the checker ({@code SideTable}) compares them with what the database holds.
 *
 * <p>Not thread-safe: one per worker thread.
 */
public final class SideTransactions {

  private final JdbcStore store;
  private final JsonLines log;
  private final String worker;
  private final Random random;
  private int count;

  /**
   * A worker's fenced transactions.
   *
   * @param store the worker's repository, on the phase's tables
   * @param log the worker's log
   * @param worker the worker's id, the prefix of its transactions' ids
   * @param seed the seed of the transactions' sleeps
   */
  public SideTransactions(JdbcStore store, JsonLines log, String worker, long seed) {
    this.store = store;
    this.log = log;
    this.worker = worker;
    this.random = new Random(seed);
  }

  /**
   * Runs one fenced transaction with the token of the running fenced work and logs its outcome; the
   * lease's loss aborts it.
   *
   * @param fencing the token of the fenced work under way
   * @throws InterruptedException if the thread was interrupted (by the lease's loss) meanwhile
   */
  public void run(FencingToken fencing) throws InterruptedException {
    String tx = worker + "-" + ++count;
    String key = fencing.key();
    long token = fencing.generation();
    double sleep = (10 + random.nextInt(51)) / 1000.0;
    log.write(event("tx_start", key, token, tx));
    try {
      long value =
          store.jdbc().inFencedTransaction(fencing, c -> increment(c, key, token, tx, sleep));
      Map<String, Object> line = event("tx_commit", key, token, tx);
      line.put("value", value);
      log.write(line);
    } catch (LeaseLost refused) {
      Map<String, Object> line = event("tx_refused", key, token, tx);
      line.put("reason", refused.reason().name());
      log.write(line);
    } catch (SQLException failed) {
      Map<String, Object> line = event("tx_failed", key, token, tx);
      line.put("error", failed.getClass().getSimpleName());
      line.put("state", String.valueOf(failed.getSQLState()));
      line.put("message", String.valueOf(failed.getMessage()));
      log.write(line);
      if (Thread.interrupted()) {
        // HikariCP's wait for a connection fails with an SQLException and sets the flag again.
        throw new InterruptedException("interrupted in a fenced transaction: " + failed);
      }
    }
  }

  private long increment(Connection c, String key, long token, String tx, double sleep)
      throws SQLException {
    long value;
    try (PreparedStatement read =
        c.prepareStatement("SELECT n FROM " + store.sideTable() + " WHERE lease_key = ?")) {
      read.setString(1, key);
      try (ResultSet row = read.executeQuery()) {
        if (!row.next()) {
          throw new SQLException("no row for key " + key + " in " + store.sideTable());
        }
        value = row.getLong(1) + 1;
      }
    }
    try (PreparedStatement pause = c.prepareStatement(store.database().shared().sleepStatement())) {
      pause.setDouble(1, sleep);
      pause.execute();
    }
    try (PreparedStatement write =
        c.prepareStatement("UPDATE " + store.sideTable() + " SET n = ? WHERE lease_key = ?")) {
      write.setLong(1, value);
      write.setString(2, key);
      write.executeUpdate();
    }
    try (PreparedStatement note =
        c.prepareStatement(
            "INSERT INTO "
                + store.sideLog()
                + " (tx, lease_key, token, value) VALUES (?, ?, ?, ?)")) {
      note.setString(1, tx);
      note.setString(2, key);
      note.setLong(3, token);
      note.setLong(4, value);
      note.executeUpdate();
    }
    return value;
  }

  private Map<String, Object> event(String name, String key, long token, String tx) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("w", worker);
    line.put("ev", name);
    line.put("key", key);
    line.put("token", token);
    line.put("tx", tx);
    return line;
  }
}
