/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The multi-row renewals of MariaDB: a batch of renewals and releases as one {@code UPDATE} per
 * {@value #ROWS_PER_STATEMENT} writes, joined with a derived table of their rows ({@code SELECT ...
 * UNION ALL SELECT ...}), each row compared on its own exactly as {@link Sql#updateSameGeneration}
 * compares it, all in one transaction with one commit. A statement that matched every row of its
 * chunk saved them all; one that matched fewer is followed, in the same transaction, by a read of
 * its rows, and a write is saved if its row is now its record. Immutable and thread-safe.
 */
final class MariaDbBatches {

  /**
   * Rows per statement: 14 placeholders each keeps a statement far below the 65,535 placeholders of
   * the binary protocol and its text within the default {@code max_allowed_packet} (16 MiB).
   */
  static final int ROWS_PER_STATEMENT = 1_000;

  private static final String FIRST_ROW =
      "SELECT ? AS key_hash, ? AS generation, ? AS revision, ? AS state, ? AS holder_host,"
          + " ? AS holder_boot_id, ? AS holder_pid_namespace, ? AS holder_pid,"
          + " ? AS holder_process_start, ? AS holder_handle_id, ? AS ttl_nanos,"
          + " ? AS updated_at_seconds, ? AS updated_at_nanos, ? AS expected";

  private static final String NEXT_ROW =
      " UNION ALL SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

  private MariaDbBatches() {}

  /**
   * Writes renewals and releases on a connection in auto-commit mode, in one transaction opened and
   * ended by statements (as {@link MariaDbDialect#writeAcquisition} does); a connection whose
   * transaction could not be ended is aborted.
   *
   * @return whether each write was saved, in order
   */
  static boolean[] writeSameGeneration(Connection connection, Sql sql, List<LeaseWrite> writes)
      throws SQLException {
    boolean[] saved = new boolean[writes.size()];
    try (Statement control = connection.createStatement()) {
      control.execute("START TRANSACTION");
      boolean ended = false;
      try {
        for (int from = 0; from < writes.size(); from += ROWS_PER_STATEMENT) {
          int to = Math.min(writes.size(), from + ROWS_PER_STATEMENT);
          writeChunk(connection, sql, writes.subList(from, to), saved, from);
        }
        control.execute("COMMIT");
        ended = true;
      } finally {
        if (!ended) {
          rollbackOrAbort(connection, control);
        }
      }
    }
    return saved;
  }

  private static void writeChunk(
      Connection connection, Sql sql, List<LeaseWrite> chunk, boolean[] saved, int offset)
      throws SQLException {
    byte[][] hashes = new byte[chunk.size()][];
    int matched;
    try (PreparedStatement update = connection.prepareStatement(update(sql, chunk.size()))) {
      int p = 1;
      for (int i = 0; i < chunk.size(); i++) {
        LeaseWrite write = chunk.get(i);
        hashes[i] = KeyBytes.hash(KeyBytes.encode(write.key()));
        update.setBytes(p++, hashes[i]);
        p = Sql.bindRecord(update, p, write.snapshot());
        update.setLong(p++, write.expectedRevision());
      }
      matched = update.executeUpdate();
    }
    if (matched == chunk.size()) {
      for (int i = 0; i < chunk.size(); i++) {
        saved[offset + i] = true;
      }
      return;
    }
    Map<String, LeaseSnapshot> stored = readBack(connection, sql, hashes);
    for (int i = 0; i < chunk.size(); i++) {
      LeaseWrite write = chunk.get(i);
      saved[offset + i] = write.snapshot().equals(stored.get(write.key()));
    }
  }

  /** The rows of the keys, as this transaction sees them: its own writes included. */
  private static Map<String, LeaseSnapshot> readBack(
      Connection connection, Sql sql, byte[][] hashes) throws SQLException {
    Map<String, LeaseSnapshot> stored = new HashMap<>(hashes.length * 2);
    try (PreparedStatement select = connection.prepareStatement(sql.selectMany(hashes.length))) {
      for (int i = 0; i < hashes.length; i++) {
        select.setBytes(i + 1, hashes[i]);
      }
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          try {
            LeaseSnapshot snapshot = Sql.snapshot(row);
            stored.put(snapshot.key(), snapshot);
          } catch (IllegalArgumentException corrupt) {
            // a damaged row is no record of ours: that write is not counted as saved
          }
        }
      }
    }
    return stored;
  }

  private static String update(Sql sql, int rows) {
    StringBuilder update =
        new StringBuilder(FIRST_ROW.length() + rows * NEXT_ROW.length() + 600)
            .append("UPDATE ")
            .append(sql.table())
            .append(" t JOIN (")
            .append(FIRST_ROW);
    for (int i = 1; i < rows; i++) {
      update.append(NEXT_ROW);
    }
    return update
        .append(") AS v ON t.key_hash = v.key_hash SET t.generation = v.generation,")
        .append(" t.revision = v.revision, t.state = v.state, t.holder_host = v.holder_host,")
        .append(" t.holder_boot_id = v.holder_boot_id,")
        .append(" t.holder_pid_namespace = v.holder_pid_namespace, t.holder_pid = v.holder_pid,")
        .append(" t.holder_process_start = v.holder_process_start,")
        .append(" t.holder_handle_id = v.holder_handle_id, t.ttl_nanos = v.ttl_nanos,")
        .append(" t.updated_at_seconds = v.updated_at_seconds,")
        .append(" t.updated_at_nanos = v.updated_at_nanos")
        .append(" WHERE t.revision = v.expected AND t.generation = v.generation")
        .toString();
  }

  private static void rollbackOrAbort(Connection connection, Statement control) {
    try {
      control.execute("ROLLBACK");
    } catch (SQLException | RuntimeException broken) {
      Connections.abortQuietly(connection);
    }
  }
}
