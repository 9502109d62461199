/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseWrite;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What differs between databases: the SQL that is not standard (creating the tables, reading their
 * comments, insert-if-absent, the fence row's locks, lighter commits, advisory locks) and how
 * errors are told apart. One implementation per database: PostgreSQL, and MariaDB (also chosen for
 * MySQL). Every statement takes the table name from {@link JdbcOptions}, validated, and everything
 * else as bound parameters.
 */
interface Dialect {

  /** The database's name, for messages. */
  String name();

  /** The DDL file in this package that creates the tables, for {@link Schema}. */
  String schemaFile();

  /**
   * Runs the statements of {@link #schemaFile()} for one table, safely beside another process doing
   * the same.
   */
  void createTables(Connection connection, String table, List<String> statements)
      throws SQLException;

  /** Whether a table exists on the connection's search path, and its comment if it has one. */
  TableComment tableComment(Connection connection, String table) throws SQLException;

  /** What {@link #tableComment} found. */
  record TableComment(boolean exists, @Nullable String comment) {}

  /**
   * Writes an acquisition (a write that raises the generation) in the connection's open
   * transaction: the key's fence row first, which waits for the fenced transactions of the
   * generation it supersedes, then the record, conditionally. The caller commits if one record row
   * was written and rolls back otherwise, so the fence is raised only with the record.
   *
   * @return the record rows written: 1, or 0 on a conflict
   */
  int writeAcquisition(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException;

  /**
   * A clause that makes an {@code UPDATE} of the record commit without waiting for the flush,
   * inserted before its {@code WHERE}; empty where the database cannot do that for one transaction.
   */
  String lighterCommit();

  /**
   * Reads the fence row of a key ({@code key_hash} bound) with a share lock held to the end of the
   * transaction: one column, the generation.
   */
  String lockFence(String table);

  /**
   * Tries to take the advisory lock of one 64-bit id without waiting: one row of two columns, a
   * boolean or 0/1 (taken) and the session's id (for tests that kill it).
   */
  String tryLock();

  /** Releases the advisory lock of one 64-bit id: one row, a boolean or 0/1 (it was held). */
  String unlock();

  /** Tells whether the failure says the table does not exist. */
  boolean isUndefinedTable(SQLException failure);

  /** Tells whether the failure says a column does not exist. */
  boolean isUndefinedColumn(SQLException failure);

  /**
   * The dialect of a database, by the product name its driver reports.
   *
   * @return the dialect, or {@code null} if none fits
   */
  static @Nullable Dialect of(String productName) {
    if (productName.equalsIgnoreCase("PostgreSQL")) {
      return new PostgresDialect();
    }
    if (productName.equalsIgnoreCase("MariaDB") || productName.equalsIgnoreCase("MySQL")) {
      return new MariaDbDialect(productName.equalsIgnoreCase("MySQL") ? "MySQL" : "MariaDB");
    }
    return null;
  }
}
