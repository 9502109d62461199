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
import org.jspecify.annotations.Nullable;

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
 *
 * <p>An acquisition calls the table's procedure, made with the tables, in one round trip, or does
 * without it in four ({@link #writeAcquisition}). One instance serves one repository's table.
 * Thread-safe.
 */
final class MariaDbDialect implements Dialect {

  /** The name of the user lock of the bound 64-bit id, in the connection's current database. */
  private static final String LOCK_NAME =
      "CONCAT('lease_', LEFT(SHA2(CONCAT_WS('/', DATABASE(), ?), 256), 40))";

  /** The comment of this library's acquisition procedure, as in {@code mariadb.sql}. */
  private static final String ROUTINE_COMMENT = "lease-jdbc acquisition, schema " + Schema.VERSION;

  private final String name;

  /** The call of the table's acquisition procedure, or {@code null} to do without it. */
  private volatile @Nullable String acquisitionCall;

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
   * Runs the statements as they are: MariaDB's {@code CREATE TABLE IF NOT EXISTS} and {@code CREATE
   * PROCEDURE IF NOT EXISTS} are safe beside another session doing the same, and each table's
   * comment is part of its own statement, so it is never written on a table someone else made. The
   * acquisition procedure is optional: a user without the right to create it ({@code CREATE
   * ROUTINE}), or a server that cannot, gets the tables alone, and acquisitions do without it.
   */
  @Override
  public void createTables(Connection connection, String table, List<String> statements)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        if (Schema.routineOf(sql) == null) {
          statement.execute(sql);
        } else {
          createRoutine(statement, sql);
        }
      }
    }
  }

  /**
   * Whatever keeps the server from making the procedure leaves the tables usable: no right to
   * create routines, a server without the routines' system table ({@code mysql.proc}), another
   * session making it at the same moment ({@code IF NOT EXISTS} checks before it writes). {@link
   * #findRoutines} then finds it or not.
   */
  private static void createRoutine(Statement statement, String sql) {
    try {
      statement.execute(sql);
    } catch (SQLException cannot) {
      // acquisitions do without it
    }
  }

  /**
   * Looks for the table's acquisition procedure ({@code <table>_acq}) among the routines the user
   * may see, and uses it if its comment names it as this library's, of this schema version: a
   * routine of that name made by someone else, or by another version, is never called. A server
   * that cannot list its routines (no {@code mysql.proc}) has none to call.
   */
  @Override
  public void findRoutines(Connection connection, String table) {
    String routine = Schema.acquisitionRoutine(table);
    boolean ours;
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT ROUTINE_COMMENT FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA ="
                + " DATABASE() AND ROUTINE_NAME = ? AND ROUTINE_TYPE = 'PROCEDURE'")) {
      select.setString(1, routine);
      try (ResultSet row = select.executeQuery()) {
        ours = row.next() && ROUTINE_COMMENT.equals(row.getString(1));
      }
    } catch (SQLException unlisted) {
      ours = false;
    }
    acquisitionCall =
        ours ? "CALL " + routine + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" : null;
  }

  /** Whether acquisitions call the procedure (else they send its statements one by one). */
  boolean callsRoutine() {
    return acquisitionCall != null;
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
   * One round trip where the table has its acquisition procedure ({@link #findRoutines}): {@code
   * CALL <table>_acq(...)}, whose transaction raises the generation row, then writes the record,
   * and commits or rolls back on the server, answering 1 or 0 (see {@code mariadb.sql}). Otherwise,
   * or once a call finds the procedure gone or not executable ({@code EXECUTE} denied; such a call
   * runs nothing), for good on this repository: the same two statements in a transaction opened and
   * ended by statements ({@code START TRANSACTION}, {@code COMMIT} or {@code ROLLBACK}, since
   * Connector/J sends each change of auto-commit as a statement of its own), four round trips.
   *
   * <p>Both take the generation row's exclusive lock first (the upsert, which waits at most {@value
   * Dialect#ACQUISITION_LOCK_WAIT_MILLIS} ms for the share locks of fenced transactions, by {@code
   * innodb_lock_wait_timeout} for that statement alone), then the record row's; renewals and
   * releases lock the record row only, and fenced transactions the generation row only (they read
   * the record before, without a lock), so no two of them wait for each other in a cycle. A
   * duplicate key, a deadlock (two first acquisitions of one key racing on the new generation row)
   * or a lock wait past the bound is a conflict: the transaction is rolled back and nothing is
   * written. A connection whose transaction could not be ended, or whose call failed without the
   * server's answer, is aborted, never lent out again with it open.
   *
   * <p>Why a procedure: the server gives no other way to send both writes at once. Several
   * statements in one query need {@code allowMultiQueries} on the application's URL; MariaDB has no
   * data-modifying {@code WITH}; a stored function may not commit or roll back; and a trigger on
   * the record table fires only once the update has locked the record row, so the generation row
   * would be locked second: a renewal would wait behind an acquisition that waits for a fenced
   * transaction (creating a trigger also needs {@code TRIGGER}, and {@code SUPER} or {@code
   * log_bin_trust_function_creators} where the binary log is on).
   */
  @Override
  public int writeAcquisition(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    String call = acquisitionCall;
    if (call != null) {
      try {
        return callAcquisition(connection, call, write, keyBytes);
      } catch (SQLException e) {
        if (isDuplicateKey(e) || isDeadlock(e) || isLockWaitTimeout(e)) {
          return 0; // the procedure answers these itself; rolled back all the same
        }
        if (!isRoutineUnavailable(e)) {
          throw e;
        }
        acquisitionCall = null;
      }
    }
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

  /**
   * The call of the procedure. Its handlers end its transaction on every error the server reports;
   * after any other failure (a cut connection, a timeout) the session's state is unknown, so it is
   * rolled back or aborted here as well.
   */
  private static int callAcquisition(
      Connection connection, String call, LeaseWrite write, byte[] keyBytes) throws SQLException {
    boolean ended = false;
    try (PreparedStatement acquire = connection.prepareStatement(call)) {
      acquire.setBytes(1, KeyBytes.hash(keyBytes));
      acquire.setBytes(2, keyBytes);
      int next = Sql.bindRecord(acquire, 3, write.snapshot());
      acquire.setLong(next, write.expectedRevision());
      try (ResultSet row = acquire.executeQuery()) {
        if (!row.next()) {
          throw new SQLException("the acquisition procedure answered no row: " + call);
        }
        int written = row.getInt(1);
        ended = true;
        return written;
      }
    } catch (SQLException e) {
      ended = ended || isRoutineUnavailable(e);
      throw e;
    } finally {
      if (!ended) {
        try (Statement control = connection.createStatement()) {
          rollbackOrAbort(connection, control);
        } catch (SQLException | RuntimeException broken) {
          Connections.abortQuietly(connection);
        }
      }
    }
  }

  /**
   * ER_SP_DOES_NOT_EXIST (1305), ER_PROCACCESS_DENIED_ERROR (1370) or ER_SP_WRONG_NO_OF_ARGS
   * (1318): the call ran nothing of the procedure.
   */
  private static boolean isRoutineUnavailable(SQLException failure) {
    int code = failure.getErrorCode();
    return code == 1305 || code == 1370 || code == 1318;
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

  /** None: MariaDB has no notifications, so its repositories offer no watch and waiters poll. */
  @Override
  public String releaseNotice(String channel) {
    return "";
  }

  @Override
  public @Nullable ReleaseNotices releaseNotices(String channel) {
    return null;
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
