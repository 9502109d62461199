/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.StoreLost;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The connections of one repository and what it does around its own statements: a connection of the
 * data source in auto-commit mode with its network waits bounded ({@link #withConnection}), one
 * transaction that commits only if its result allows ({@link #inTransaction}), the abort of a
 * connection that must not be lent out again ({@link #abortQuietly}), and the mapping of a failure
 * to the library's exceptions: {@link LeaseRepositoryFailure} naming the call, the database and the
 * table, or {@link StoreLost} for a table dropped after opening.
 *
 * <p>Immutable and thread-safe: every call takes a connection of its own from the data source,
 * which stays the application's.
 */
final class Connections {

  /** Statements on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;
  private final Dialect dialect;
  private final String table;
  private final int networkTimeoutMillis;

  Connections(DataSource dataSource, Dialect dialect, String table, Duration networkTimeout) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.table = table;
    this.networkTimeoutMillis = (int) networkTimeout.toMillis();
  }

  /** The database's dialect. */
  Dialect dialect() {
    return dialect;
  }

  /** The record table's name, for messages and key lock ids. */
  String table() {
    return table;
  }

  /** The bound on each network wait of the repository's own statements, in milliseconds. */
  int networkTimeoutMillis() {
    return networkTimeoutMillis;
  }

  /** Borrows a connection of the data source, as its pool lends it; the caller closes it. */
  Connection borrow() throws SQLException {
    return dataSource.getConnection();
  }

  /**
   * Runs work on a connection of its own in auto-commit mode. A pending interrupt is set aside
   * while it runs and restored after: an interrupt must not break a write halfway (a pool's wait
   * would end, leaving a release unwritten), and JDBC calls do not answer interrupts anyway.
   */
  <T> T withConnection(@Nullable String key, String what, Work<T> work) {
    boolean interrupted = Thread.interrupted();
    try (Connection connection = dataSource.getConnection()) {
      NetworkBound bound = NetworkBound.apply(connection, networkTimeoutMillis);
      try {
        autoCommit(connection);
        return work.run(connection);
      } finally {
        bound.restore();
      }
    } catch (SQLException e) {
      if (dialect.isUndefinedTable(e)) {
        throw new StoreLost(
            "the lease table '"
                + table
                + "' no longer exists in this "
                + dialect.name()
                + " database: it was dropped after the repository was opened",
            e);
      }
      throw failure(key, what, e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The failure of a call ({@code what}, of lease {@code key} if there is one). */
  LeaseRepositoryFailure failure(@Nullable String key, String what, SQLException e) {
    String subject = key == null ? "" : " lease '" + key + "'";
    return new LeaseRepositoryFailure(
        key,
        "cannot "
            + what
            + subject
            + " in "
            + dialect.name()
            + " table '"
            + table
            + "': "
            + describe(e),
        e);
  }

  /**
   * Runs work in one transaction on the connection, then commits if {@code commit} accepts its
   * result and rolls back otherwise (or if it throws); the connection is in auto-commit mode again
   * after.
   */
  static <T> T inTransaction(Connection connection, Work<T> work, Predicate<T> commit)
      throws SQLException {
    connection.setAutoCommit(false);
    boolean committed = false;
    try {
      T result = work.run(connection);
      if (commit.test(result)) {
        connection.commit();
        committed = true;
      }
      return result;
    } finally {
      if (!committed) {
        rollbackQuietly(connection);
      }
      try {
        connection.setAutoCommit(true);
      } catch (SQLException | RuntimeException broken) {
        // a broken connection: the pool finds it out and drops it
      }
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException | RuntimeException broken) {
      // nothing was committed; a broken connection is dropped by the pool
    }
  }

  /** Puts the connection in auto-commit mode, where a pool may have lent it out of it. */
  static void autoCommit(Connection connection) throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.setAutoCommit(true);
    }
  }

  /**
   * Aborts the connection, then lets its pool see that it is broken: an abort goes past the pool
   * (HikariCP passes it to the driver and would lend the dead connection out again once it is
   * closed, within half a second without checking it), while a statement that fails with a
   * connection error (SQLState 08...) makes a pool that takes those as fatal drop it.
   *
   * @return false if the driver or pool refused to abort (the connection may still be open)
   */
  static boolean abortQuietly(Connection connection) {
    try {
      connection.abort(Runnable::run);
    } catch (SQLException | RuntimeException notAborted) {
      return false;
    }
    try (Statement probe = connection.createStatement()) {
      probe.execute("SELECT 1");
    } catch (SQLException | RuntimeException expected) {
      // the connection is gone, and its pool has seen it fail
    }
    return true;
  }

  /** Closes the connection (back to its pool), ignoring a failure. */
  static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException ignored) {
      // the connection is given up either way
    }
  }

  /** The failure's message, with its SQLState if it has one. */
  static String describe(SQLException e) {
    return e.getMessage() + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")");
  }
}
