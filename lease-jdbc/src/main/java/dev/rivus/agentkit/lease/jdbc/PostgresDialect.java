/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.rivus.agentkit.lease.LeaseWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * PostgreSQL (9.5 or later, for {@code ON CONFLICT}).
 *
 * <p>An acquisition is one statement in a transaction of its own: a data-modifying {@code WITH}
 * that raises the fence row ({@code INSERT ... ON CONFLICT DO UPDATE}, which waits for the share
 * locks of fenced transactions) and whose result the record's conditional {@code UPDATE} (or {@code
 * INSERT ... ON CONFLICT DO NOTHING}) joins, so the fence row is always locked before the record
 * row. Renewals and releases set {@code synchronous_commit} to {@code off} for their own
 * transaction, in the same statement ({@code set_config(..., true)} in a one-row {@code FROM}), so
 * they cost no extra round trip and change nothing of the session for the pool's next user.
 */
final class PostgresDialect implements Dialect {

  /** Serializes {@link #createTables} per table across sessions. */
  private static final String SCHEMA_LOCK = "SELECT pg_advisory_xact_lock(?)";

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public String schemaFile() {
    return "postgresql.sql";
  }

  /**
   * In one transaction under an advisory lock of the table's name: without it, two sessions running
   * {@code CREATE TABLE IF NOT EXISTS} at once can fail on the catalog's unique index, and the
   * comments would be written on a table that someone else made. So the statements run only if the
   * record table does not exist.
   */
  @Override
  public void createTables(Connection connection, String table, List<String> statements)
      throws SQLException {
    connection.setAutoCommit(false);
    try {
      try (PreparedStatement lock = connection.prepareStatement(SCHEMA_LOCK)) {
        // No table is named so (JdbcOptions allows no '-' or space): no key lock shares this id.
        lock.setLong(1, KeyBytes.lockId("lease-jdbc schema", table.getBytes(UTF_8)));
        lock.executeQuery().close();
      }
      if (!tableComment(connection, table).exists()) {
        try (Statement statement = connection.createStatement()) {
          for (String sql : statements) {
            statement.execute(sql);
          }
        }
      }
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  @Override
  public TableComment tableComment(Connection connection, String table) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT to_regclass(?) IS NOT NULL, obj_description(to_regclass(?), 'pg_class')")) {
      select.setString(1, table);
      select.setString(2, table);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return new TableComment(row.getBoolean(1), row.getString(2));
      }
    }
  }

  @Override
  public int writeAcquisition(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    String raiseFence =
        "WITH fence AS (INSERT INTO "
            + sql.fenceTable()
            + " (key_hash, generation) VALUES (?, ?) ON CONFLICT (key_hash) DO UPDATE"
            + " SET generation = EXCLUDED.generation RETURNING key_hash) ";
    String statement =
        write.expectedRevision() == 0
            ? raiseFence
                + "INSERT INTO "
                + sql.table()
                + " ("
                + Sql.RECORD_COLUMNS
                + ", key_hash) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, fence.key_hash"
                + " FROM fence ON CONFLICT (key_hash) DO NOTHING"
            : raiseFence
                + sql.updateRecordPrefix()
                + " FROM fence WHERE "
                + sql.table()
                + ".key_hash = fence.key_hash AND revision = ? AND "
                + sql.table()
                + ".generation < ?";
    try (PreparedStatement acquire = connection.prepareStatement(statement)) {
      acquire.setBytes(1, KeyBytes.hash(keyBytes));
      acquire.setLong(2, write.snapshot().generation());
      if (write.expectedRevision() == 0) {
        acquire.setBytes(3, keyBytes);
        Sql.bindRecord(acquire, 4, write.snapshot());
      } else {
        int next = Sql.bindRecord(acquire, 3, write.snapshot());
        acquire.setLong(next++, write.expectedRevision());
        acquire.setLong(next, write.snapshot().generation());
      }
      return acquire.executeUpdate();
    } catch (SQLException e) {
      if (isRaceLost(e)) {
        return 0;
      }
      throw e;
    }
  }

  /** Serialization failure or deadlock: the transaction was rolled back, nothing written. */
  private static boolean isRaceLost(SQLException failure) {
    return "40001".equals(failure.getSQLState()) || "40P01".equals(failure.getSQLState());
  }

  @Override
  public String lighterCommit() {
    return " FROM (SELECT set_config('synchronous_commit', 'off', true)) AS lighter_commit";
  }

  @Override
  public String lockFence(String table) {
    return "SELECT generation FROM " + Schema.fenceTable(table) + " WHERE key_hash = ? FOR SHARE";
  }

  @Override
  public String tryLock() {
    return "SELECT pg_try_advisory_lock(?), pg_backend_pid()";
  }

  @Override
  public String unlock() {
    return "SELECT pg_advisory_unlock(?)";
  }

  @Override
  public boolean isUndefinedTable(SQLException failure) {
    return "42P01".equals(failure.getSQLState());
  }

  @Override
  public boolean isUndefinedColumn(SQLException failure) {
    return "42703".equals(failure.getSQLState());
  }
}
