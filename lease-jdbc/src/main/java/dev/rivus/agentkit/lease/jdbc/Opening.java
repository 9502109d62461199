/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Opening a repository on a data source: tells the database's dialect by the product name its
 * driver reports, creates the tables ({@link Schema#create}) when asked, and checks them ({@link
 * Schema#check}), each on a connection of its own that it closes. Every failure is a {@link
 * LeaseRepositoryFailure} naming the table. Stateless and thread-safe.
 */
final class Opening {

  private Opening() {}

  /**
   * Creates the lease table and its generation table if they do not exist, in auto-commit mode.
   *
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     tables cannot be created
   */
  static void createTables(DataSource dataSource, String table) {
    try (Connection connection = dataSource.getConnection()) {
      Dialect dialect = dialect(connection, table);
      Connections.autoCommit(connection);
      Schema.create(connection, dialect, table);
    } catch (SQLException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot create the lease table '" + table + "': " + Connections.describe(e), e);
    }
  }

  /**
   * Checks that the tables exist and are this library's, of the schema version it reads, with the
   * columns it needs.
   *
   * @return the database's dialect
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or a table
   *     does not exist, is someone else's, is of another schema version, or lacks a column
   */
  static Dialect checkTables(DataSource dataSource, String table) {
    try (Connection connection = dataSource.getConnection()) {
      Dialect dialect = dialect(connection, table);
      Schema.check(connection, dialect, new Sql(table, dialect), table);
      dialect.findRoutines(connection, table);
      return dialect;
    } catch (SQLException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot open the lease table '" + table + "': " + Connections.describe(e), e);
    }
  }

  private static Dialect dialect(Connection connection, String table) throws SQLException {
    String product = connection.getMetaData().getDatabaseProductName();
    Dialect dialect = Dialect.of(product);
    if (dialect == null) {
      throw new LeaseRepositoryFailure(
          null,
          "the lease table '"
              + table
              + "' is on "
              + product
              + ", which JdbcLeaseRepository does not support; it supports PostgreSQL and"
              + " MariaDB",
          null);
    }
    return dialect;
  }
}
