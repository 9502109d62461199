/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.support.Durations;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Reads and binds lease rows; the only place that knows the columns of {@code lease} and {@code
 * lease_holder}.
 */
final class Rows {

  private Rows() {}

  /** The stored record of a key, read inside or outside a transaction. */
  static Optional<LeaseSnapshot> select(Session session, String key, byte[] keyBytes)
      throws SQLException {
    PreparedStatement select = session.statement(Sql.SELECT_RECORD);
    select.setBytes(1, keyBytes);
    try (ResultSet row = select.executeQuery()) {
      return row.next() ? Optional.of(snapshot(key, row)) : Optional.empty();
    }
  }

  /** Every stored record; floors are not records and are not listed. */
  static List<LeaseSnapshot> selectAll(Session session) throws SQLException {
    List<LeaseSnapshot> all = new ArrayList<>();
    try (ResultSet row = session.statement(Sql.SELECT_ALL).executeQuery()) {
      while (row.next()) {
        all.add(snapshot(KeyBytes.decode(row.getBytes(13)), row));
      }
    }
    return all;
  }

  /** The stored revision of a key, or {@code 0} if it has no record. */
  static long revision(Session session, byte[] keyBytes) throws SQLException {
    PreparedStatement select = session.statement(Sql.SELECT_REVISION);
    select.setBytes(1, keyBytes);
    try (ResultSet row = select.executeQuery()) {
      return row.next() ? row.getLong(1) : 0;
    }
  }

  /**
   * Maps the columns of {@link Sql#SELECT_RECORD}. A row without a TTL (migrated from schema
   * version 1, see {@link SchemaMigration}) reads with the longest TTL any holder could have
   * promised.
   *
   * @throws IllegalArgumentException if a stored value breaks a rule of the snapshot (a damaged
   *     row)
   */
  private static LeaseSnapshot snapshot(String key, ResultSet row) throws SQLException {
    ProcessIdentity process =
        new ProcessIdentity(
            row.getString(4), row.getString(5), row.getString(6), row.getLong(7), row.getString(8));
    long ttlNanos = row.getLong(12);
    Duration ttl = row.wasNull() ? LeaseConfig.MAX_DURATION : Duration.ofNanos(ttlNanos);
    return new LeaseSnapshot(
        key,
        row.getLong(1),
        row.getLong(2),
        LeaseState.valueOf(row.getString(3)),
        new HolderIdentity(process, row.getString(9)),
        ttl,
        Instant.ofEpochSecond(row.getLong(10), row.getLong(11)));
  }

  /** The floors left by pruning. */
  static Floor floor(Session session) throws SQLException {
    try (ResultSet row = session.statement(Sql.SELECT_FLOOR).executeQuery()) {
      row.next();
      return new Floor(row.getLong(1), row.getLong(2), Instant.ofEpochSecond(row.getLong(3)));
    }
  }

  /**
   * Binds parameters {@code ?1}–{@code ?8} of {@link Sql#WRITE_RECORD} and {@link
   * Sql#INSERT_RECORD}.
   */
  static void bindRecord(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    LeaseSnapshot snapshot = write.snapshot();
    statement.setLong(1, snapshot.generation());
    statement.setLong(2, snapshot.revision());
    statement.setString(3, snapshot.state().name());
    // A TTL (always positive) beyond 292 years is stored as the longest that fits, still longer
    // than any TTL a manager accepts (LeaseConfig.MAX_DURATION).
    statement.setLong(4, Durations.saturatedNanos(snapshot.ttl()));
    Instant updatedAt = snapshot.updatedAt();
    statement.setLong(5, updatedAt.getEpochSecond());
    statement.setLong(6, updatedAt.getNano());
    statement.setBytes(7, keyBytes);
    statement.setLong(8, write.expectedRevision());
  }

  /** Binds parameters {@code ?1}–{@code ?10} of {@link Sql#WRITE_RECORD}. */
  static void bindUpdate(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    bindRecord(statement, keyBytes, write);
    HolderIdentity holder = write.snapshot().holder();
    statement.setString(9, holder.handleId());
    statement.setString(10, holder.process().host());
  }

  /** Binds the parameters of {@link Sql#WRITE_HOLDER}. */
  static void bindHolder(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    HolderIdentity holder = write.snapshot().holder();
    ProcessIdentity process = holder.process();
    statement.setBytes(1, keyBytes);
    statement.setString(2, process.host());
    setNullable(statement, 3, process.bootId());
    setNullable(statement, 4, process.pidNamespace());
    statement.setLong(5, process.pid());
    setNullable(statement, 6, process.processStart());
    statement.setString(7, holder.handleId());
  }

  /** Binds parameters {@code ?1}–{@code ?6} of {@link Sql#RENEW_RECORD}. */
  static void bindRenewal(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    LeaseSnapshot snapshot = write.snapshot();
    statement.setLong(1, snapshot.revision());
    Instant updatedAt = snapshot.updatedAt();
    statement.setLong(2, updatedAt.getEpochSecond());
    statement.setLong(3, updatedAt.getNano());
    statement.setBytes(4, keyBytes);
    statement.setLong(5, write.expectedRevision());
    statement.setLong(6, snapshot.generation());
  }

  private static void setNullable(PreparedStatement statement, int index, @Nullable String value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.VARCHAR);
    } else {
      statement.setString(index, value);
    }
  }

  /**
   * The floors left by pruning: the highest generation and revision ever pruned. Either above 0
   * means a key with no record loads as a floor; version 1 kept only the generation (see {@link
   * SchemaMigration}), so both are read as at least 1 then, as a floor snapshot requires.
   */
  record Floor(long generation, long revision, Instant raisedAt) {

    boolean exists() {
      return generation > 0 || revision > 0;
    }

    /** The revision a write creating a record must expect: the floor's, 0 when there is none. */
    long expectedRevision() {
      return exists() ? Math.max(1, revision) : 0;
    }

    Optional<LeaseSnapshot> of(String key) {
      return exists()
          ? Optional.of(
              LeaseSnapshot.floor(key, Math.max(1, generation), expectedRevision(), raisedAt))
          : Optional.empty();
    }
  }
}
