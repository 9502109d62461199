/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.sql.SQLException;

/**
 * What differs between databases: the SQL that is not standard (create-if-absent, insert-if-absent,
 * advisory locks) and how errors are told apart. One implementation per database: PostgreSQL, and
 * MariaDB (also chosen for MySQL). Every statement takes the table name from {@link JdbcOptions},
 * validated, and everything else as bound parameters.
 */
interface Dialect {

  /** The database's name, for messages. */
  String name();

  /** Creates the table if it does not exist. */
  String createTable(String table);

  /**
   * Inserts a record unless its key has a row already; 0 rows, or a failure that {@link
   * #isDuplicateKey} recognizes, means a conflict. Parameters as {@link Sql#bindInsert}.
   */
  String insertIfAbsent(String table);

  /** Tells whether the failure of {@link #insertIfAbsent} says the key has a row already. */
  boolean isDuplicateKey(SQLException failure);

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
  static @org.jspecify.annotations.Nullable Dialect of(String productName) {
    if (productName.equalsIgnoreCase("PostgreSQL")) {
      return new PostgresDialect();
    }
    if (productName.equalsIgnoreCase("MariaDB") || productName.equalsIgnoreCase("MySQL")) {
      return new MariaDbDialect(productName.equalsIgnoreCase("MySQL") ? "MySQL" : "MariaDB");
    }
    return null;
  }
}
