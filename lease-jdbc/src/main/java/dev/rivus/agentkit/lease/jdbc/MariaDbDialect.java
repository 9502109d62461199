/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * MariaDB (10.6 or later; tested on 10.11), also chosen for a database that calls itself MySQL
 * (untested). The table is InnoDB; the key's hash is {@code BINARY(32)}, the key {@code
 * VARBINARY(4096)} (a key of 1024 characters takes at most 3072 bytes), the holder's strings {@code
 * TEXT} in {@code utf8mb4} (no length of their own to truncate at).
 *
 * <p>A new key's record is a plain {@code INSERT}; a duplicate key (error 1062) is the conflict.
 * Neither {@code INSERT IGNORE} (which would hide other errors as well) nor {@code ON DUPLICATE KEY
 * UPDATE} (whose row count depends on the driver's found-rows setting) is used. The updates always
 * change {@code revision}, so "found" and "changed" rows are the same count.
 *
 * <p>The key lock is a named user lock ({@code GET_LOCK(name, 0)}, polled), which belongs to the
 * session and is released when it ends. User lock names are global to the server, so the name is
 * {@code lease_} and 40 hex digits of the SHA-256 of the current database's name and the 64-bit
 * lock id (which already covers the table and the key): 46 characters, within the limit of 64.
 */
final class MariaDbDialect implements Dialect {

  /** The name of the user lock of the bound 64-bit id, in the connection's current database. */
  private static final String LOCK_NAME =
      "CONCAT('lease_', LEFT(SHA2(CONCAT_WS('/', DATABASE(), ?), 256), 40))";

  private final String name;

  MariaDbDialect(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String schemaFile() {
    return "mariadb.sql";
  }

  /**
   * Runs the statements as they are: MariaDB's {@code CREATE TABLE IF NOT EXISTS} is safe beside
   * another session doing the same, and each table's comment is part of its own statement, so it is
   * never written on a table someone else made.
   */
  @Override
  public void createTables(Connection connection, String table, List<String> statements)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  @Override
  public TableComment tableComment(Connection connection, String table) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT TABLE_COMMENT FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
      select.setString(1, table);
      try (ResultSet row = select.executeQuery()) {
        return row.next()
            ? new TableComment(true, row.getString(1))
            : new TableComment(false, null);
      }
    }
  }

  /**
   * Two statements in a transaction opened and ended by statements ({@code START TRANSACTION},
   * {@code COMMIT} or {@code ROLLBACK}), since Connector/J sends each change of auto-commit as a
   * statement of its own: the generation row's upsert (an exclusive lock, which waits for the share
   * locks of fenced transactions), then the record's plain {@code INSERT} or conditional {@code
   * UPDATE}. A duplicate key or a deadlock (two first acquisitions of one key racing on the new
   * generation row) is a conflict: the transaction is rolled back and nothing is written. A
   * connection whose transaction could not be ended is aborted, never lent out again with it open.
   */
  @Override
  public int writeAcquisition(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    try (Statement control = connection.createStatement()) {
      control.execute("START TRANSACTION");
      boolean ended = false;
      try {
        int written = writeInTransaction(connection, sql, write, keyBytes);
        control.execute(written == 1 ? "COMMIT" : "ROLLBACK");
        ended = true;
        return written;
      } finally {
        if (!ended) {
          rollbackOrAbort(connection, control);
        }
      }
    }
  }

  private static void rollbackOrAbort(Connection connection, Statement control) {
    try {
      control.execute("ROLLBACK");
    } catch (SQLException | RuntimeException broken) {
      Connections.abortQuietly(connection);
    }
  }

  private int writeInTransaction(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    byte[] keyHash = KeyBytes.hash(keyBytes);
    try {
      try (PreparedStatement raise =
          connection.prepareStatement(
              // A stalled holder's fenced transaction must not keep an acquisition waiting past
              // its caller's budget (InnoDB counts whole seconds).
              "SET STATEMENT innodb_lock_wait_timeout = "
                  + Math.max(1, Dialect.ACQUISITION_LOCK_WAIT_MILLIS / 1000)
                  + " FOR INSERT INTO "
                  + sql.generationTable()
                  + " (key_hash, generation) VALUES (?, ?)"
                  + " ON DUPLICATE KEY UPDATE generation = VALUES(generation)")) {
        raise.setBytes(1, keyHash);
        raise.setLong(2, write.snapshot().generation());
        raise.executeUpdate();
      }
      if (write.expectedRevision() == 0) {
        try (PreparedStatement insert = connection.prepareStatement(sql.insert())) {
          Sql.bindInsert(insert, keyBytes, write);
          return insert.executeUpdate();
        }
      }
      try (PreparedStatement update = connection.prepareStatement(sql.updateRaising())) {
        Sql.bindUpdate(update, keyBytes, write);
        return update.executeUpdate();
      }
    } catch (SQLException e) {
      if (isDuplicateKey(e) || isDeadlock(e) || isLockWaitTimeout(e)) {
        return 0;
      }
      throw e;
    }
  }

  /** ER_DUP_ENTRY (1062), SQLState 23000. */
  private static boolean isDuplicateKey(SQLException failure) {
    return failure.getErrorCode() == 1062 && "23000".equals(failure.getSQLState());
  }

  /** ER_LOCK_DEADLOCK (1213), SQLState 40001: the transaction was rolled back. */
  private static boolean isDeadlock(SQLException failure) {
    return failure.getErrorCode() == 1213 || "40001".equals(failure.getSQLState());
  }

  /**
   * Nothing: InnoDB's flush on commit ({@code innodb_flush_log_at_trx_commit}) is a global setting,
   * not one of a transaction; it must be 1, its default.
   */
  @Override
  public String durableCommit() {
    return "";
  }

  /** Nothing, as for {@link #durableCommit()}: releases wait for the flush too. */
  @Override
  public String commitMode() {
    return "";
  }

  /**
   * {@code LOCK IN SHARE MODE}: MariaDB before 11 has no {@code FOR SHARE}. The idle bound is the
   * session's ({@link #beforeFencedTransaction}).
   */
  @Override
  public long lockGenerationRow(Connection connection, Sql sql, byte[] keyHash, Duration idleBound)
      throws SQLException {
    try (PreparedStatement lock =
        connection.prepareStatement(
            "SELECT generation FROM "
                + sql.generationTable()
                + " WHERE key_hash = ? LOCK IN SHARE MODE")) {
      lock.setBytes(1, keyHash);
      try (ResultSet row = lock.executeQuery()) {
        return row.next() ? row.getLong(1) : -1;
      }
    }
  }

  /** {@code idle_transaction_timeout} (MariaDB 10.3), in whole seconds, for the session. */
  @Override
  public void beforeFencedTransaction(Connection connection, Duration idleBound)
      throws SQLException {
    long seconds = Math.max(1, (idleBound.toMillis() + 999) / 1000);
    try (Statement set = connection.createStatement()) {
      set.execute("SET SESSION idle_transaction_timeout = " + seconds);
    }
  }

  @Override
  public void afterFencedTransaction(Connection connection) throws SQLException {
    try (Statement reset = connection.createStatement()) {
      reset.execute("SET SESSION idle_transaction_timeout = DEFAULT");
    }
  }

  /** ER_LOCK_WAIT_TIMEOUT (1205). */
  @Override
  public boolean isLockWaitTimeout(SQLException failure) {
    return failure.getErrorCode() == 1205;
  }

  @Override
  public String tryLock() {
    return "SELECT GET_LOCK(" + LOCK_NAME + ", 0), CONNECTION_ID()";
  }

  @Override
  public String unlock() {
    return "SELECT RELEASE_LOCK(" + LOCK_NAME + ")";
  }

  /** Where the key lock's session keeps its own {@code wait_timeout} while the lock bounds it. */
  private static final String WAIT_TIMEOUT_BEFORE = "@lease_key_lock_wait_timeout";

  /**
   * {@code wait_timeout} for the session, in whole seconds rounded up: the server closes a
   * connection that sent no command for that long, and its user locks go with it. Any command
   * counts, the driver's ping ({@code COM_PING}, which {@code isValid} sends) too. The session's
   * own value is kept in a user variable, set first in the same statement (MariaDB assigns in
   * order), and given back from it. {@code net_read_timeout} and {@code net_write_timeout} play no
   * part: they bound a read or write in the middle of a command, not the silence between two.
   */
  @Override
  public SessionSettings boundSilence(Connection connection, Duration silenceBound)
      throws SQLException {
    long seconds = Math.max(1, (silenceBound.toMillis() + 999) / 1000);
    try (Statement set = connection.createStatement()) {
      set.execute(
          "SET "
              + WAIT_TIMEOUT_BEFORE
              + " = @@session.wait_timeout, SESSION wait_timeout = "
              + seconds);
    }
    return restored -> {
      try (Statement restore = restored.createStatement()) {
        restore.execute(
            "SET SESSION wait_timeout = "
                + WAIT_TIMEOUT_BEFORE
                + ", "
                + WAIT_TIMEOUT_BEFORE
                + " = NULL");
      }
    };
  }

  /** ER_NO_SUCH_TABLE (1146), SQLState 42S02. */
  @Override
  public boolean isUndefinedTable(SQLException failure) {
    return failure.getErrorCode() == 1146 || "42S02".equals(failure.getSQLState());
  }

  /** ER_BAD_FIELD_ERROR (1054), SQLState 42S22. */
  @Override
  public boolean isUndefinedColumn(SQLException failure) {
    return failure.getErrorCode() == 1054 || "42S22".equals(failure.getSQLState());
  }

  /**
   * {@value MariaDbBatches#ROWS_PER_STATEMENT} rows per statement, all in one transaction ({@link
   * MariaDbBatches}); {@code lighter} changes nothing, as for {@link #commitMode()}.
   */
  @Override
  public boolean[] writeSameGeneration(
      Connection connection, Sql sql, List<LeaseWrite> writes, boolean lighter)
      throws SQLException {
    return MariaDbBatches.writeSameGeneration(connection, sql, writes);
  }
}
