/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.HolderIdentity;
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
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The standard SQL of the repository, and the only place that knows the columns of its table.
 * {@code state} is the name of a {@link LeaseState}; a {@code PRUNED} row is the floor a pruned
 * tombstone left. The time is {@code updated_at_seconds} and {@code updated_at_nanos}, exact to the
 * nanosecond, and the TTL is {@code ttl_nanos}.
 */
final class Sql {

  /** The columns of a record, in the order of {@link #bindRecord} and {@link #snapshot}. */
  static final String RECORD_COLUMNS =
      "lease_key, generation, revision, state, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle_id, ttl_nanos, updated_at_seconds,"
          + " updated_at_nanos";

  private static final String SET_RECORD =
      " SET generation = ?, revision = ?, state = ?, holder_host = ?, holder_boot_id = ?,"
          + " holder_pid_namespace = ?, holder_pid = ?, holder_process_start = ?,"
          + " holder_handle_id = ?, ttl_nanos = ?, updated_at_seconds = ?, updated_at_nanos = ?";

  private final String table;
  private final String generationTable;
  private final String selectOne;
  private final String selectAll;
  private final String checkColumns;
  private final String updateRaising;
  private final String updateSameGeneration;
  private final String updateRelease;
  private final boolean hasCommitMode;
  private final boolean hasReleaseNotice;
  private final String insert;
  private final String pruneAll;
  private final String pruneOlder;

  Sql(String table, Dialect dialect) {
    this.table = table;
    this.generationTable = Schema.generationTable(table);
    selectOne = "SELECT " + RECORD_COLUMNS + " FROM " + table + " WHERE key_hash = ?";
    selectAll =
        "SELECT "
            + RECORD_COLUMNS
            + " FROM "
            + table
            + " WHERE state <> '"
            + LeaseState.PRUNED
            + "'";
    checkColumns =
        "SELECT key_hash, "
            + RECORD_COLUMNS
            + " FROM "
            + table
            + " WHERE 1 = 0 UNION ALL SELECT key_hash, NULL, generation, NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM "
            + generationTable
            + " WHERE 1 = 0";
    String set = "UPDATE " + table + SET_RECORD;
    String where = " WHERE key_hash = ? AND revision = ?";
    updateRaising = set + where + " AND generation < ?";
    String commitMode = dialect.commitMode();
    hasCommitMode = !commitMode.isEmpty();
    updateSameGeneration =
        set + (hasCommitMode ? " FROM " + commitMode : "") + where + " AND generation = ?";
    String releaseNotice = dialect.releaseNotice(ReleaseNotices.channel(table));
    hasReleaseNotice = !releaseNotice.isEmpty();
    List<String> releaseFrom = new ArrayList<>();
    if (hasCommitMode) {
      releaseFrom.add(commitMode);
    }
    if (hasReleaseNotice) {
      releaseFrom.add(releaseNotice);
    }
    updateRelease =
        set
            + (releaseFrom.isEmpty() ? "" : " FROM " + String.join(", ", releaseFrom))
            + where
            + " AND generation = ?";
    insert =
        "INSERT INTO "
            + table
            + " ("
            + RECORD_COLUMNS
            + ", key_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    String prune =
        "UPDATE "
            + table
            + " SET state = '"
            + LeaseState.PRUNED
            + "', updated_at_seconds = ?, updated_at_nanos = ? WHERE state = '"
            + LeaseState.RELEASED
            + "'";
    pruneAll = prune;
    pruneOlder =
        prune
            + " AND (updated_at_seconds < ? OR (updated_at_seconds = ? AND updated_at_nanos <= ?))";
  }

  /** The record table's name. */
  String table() {
    return table;
  }

  /** The generation table's name. */
  String generationTable() {
    return generationTable;
  }

  String selectOne() {
    return selectOne;
  }

  /**
   * Selects the records of {@code count} keys, by their hashes as parameters 1 to {@code count}.
   */
  String selectMany(int count) {
    StringBuilder select =
        new StringBuilder(selectOne.length() + 3 * count)
            .append(selectOne, 0, selectOne.length() - " = ?".length())
            .append(" IN (?");
    for (int i = 1; i < count; i++) {
      select.append(", ?");
    }
    return select.append(')').toString();
  }

  String selectAll() {
    return selectAll;
  }

  /** Selects no row but names every column of both tables: fails if one lacks a column. */
  String checkColumns() {
    return checkColumns;
  }

  /**
   * The update of a renewal or a release, which keeps the generation; as {@link
   * #bindSameGeneration}.
   */
  String updateSameGeneration() {
    return updateSameGeneration;
  }

  /**
   * The update of a release: as {@link #updateSameGeneration}, and where the dialect can, it
   * notifies the table's listeners ({@link Dialect#releaseNotice}); as {@link #bindSameGeneration}
   * with {@code release} true.
   */
  String updateRelease() {
    return updateRelease;
  }

  /**
   * Binds the parameters of {@link #updateSameGeneration}, or of {@link #updateRelease} if {@code
   * release}: the record, whether its transaction may commit without waiting for the flush ({@code
   * lighter}, where the dialect can say so), a release's notice (where the dialect sends one), then
   * the key's hash, the expected revision and the generation.
   */
  void bindSameGeneration(
      PreparedStatement statement,
      byte[] keyBytes,
      LeaseWrite write,
      boolean lighter,
      boolean release)
      throws SQLException {
    int next = bindRecord(statement, 1, write.snapshot());
    if (hasCommitMode) {
      statement.setBoolean(next++, lighter);
    }
    byte[] keyHash = KeyBytes.hash(keyBytes);
    if (release && hasReleaseNotice) {
      statement.setString(next++, HexFormat.of().formatHex(keyHash));
    }
    statement.setBytes(next++, keyHash);
    statement.setLong(next++, write.expectedRevision());
    statement.setLong(next, write.snapshot().generation());
  }

  /** The update of an acquisition, which must raise the generation; as {@link #bindUpdate}. */
  String updateRaising() {
    return updateRaising;
  }

  /** The plain insert of a new key's record; as {@link #bindInsert}. */
  String insert() {
    return insert;
  }

  /**
   * The SET clause of a record's update, {@code UPDATE table SET ...}, for a dialect's own
   * statements; its parameters as {@link #bindRecord}.
   */
  String updateRecordPrefix() {
    return "UPDATE " + table + SET_RECORD;
  }

  /**
   * Parameters: now (seconds, nanos); then, unless {@code all}, the cutoff (seconds twice, nanos).
   */
  String prune(boolean all) {
    return all ? pruneAll : pruneOlder;
  }

  /** Binds parameters 1–14 of {@link #insert}. */
  static void bindInsert(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    statement.setBytes(1, keyBytes);
    bindRecord(statement, 2, write.snapshot());
    statement.setBytes(14, KeyBytes.hash(keyBytes));
  }

  /** Binds parameters 1–15 of {@link #updateRaising}. */
  static void bindUpdate(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    bindRecord(statement, 1, write.snapshot());
    statement.setBytes(13, KeyBytes.hash(keyBytes));
    statement.setLong(14, write.expectedRevision());
    statement.setLong(15, write.snapshot().generation());
  }

  /**
   * Binds the 12 columns after {@code lease_key}, from {@code first} on.
   *
   * @return the index of the next parameter
   */
  static int bindRecord(PreparedStatement statement, int first, LeaseSnapshot snapshot)
      throws SQLException {
    HolderIdentity holder = snapshot.holder();
    ProcessIdentity process = holder.process();
    int i = first;
    statement.setLong(i++, snapshot.generation());
    statement.setLong(i++, snapshot.revision());
    statement.setString(i++, snapshot.state().name());
    statement.setString(i++, process.host());
    setNullable(statement, i++, process.bootId());
    setNullable(statement, i++, process.pidNamespace());
    statement.setLong(i++, process.pid());
    setNullable(statement, i++, process.processStart());
    statement.setString(i++, holder.handleId());
    // A TTL (always positive) beyond 292 years is stored as the longest that fits, still longer
    // than any TTL a manager accepts.
    statement.setLong(i++, Durations.saturatedNanos(snapshot.ttl()));
    Instant updatedAt = snapshot.updatedAt();
    statement.setLong(i++, updatedAt.getEpochSecond());
    statement.setInt(i++, updatedAt.getNano());
    return i;
  }

  /**
   * Maps a row of {@link #RECORD_COLUMNS}; a pruned row is a floor.
   *
   * @throws IllegalArgumentException if a stored value breaks a rule of the snapshot (a damaged
   *     row)
   */
  static LeaseSnapshot snapshot(ResultSet row) throws SQLException {
    String key = KeyBytes.decode(row.getBytes(1));
    long generation = row.getLong(2);
    long revision = row.getLong(3);
    LeaseState state = LeaseState.valueOf(row.getString(4));
    Instant updatedAt = Instant.ofEpochSecond(row.getLong(12), row.getInt(13));
    if (state == LeaseState.PRUNED) {
      return LeaseSnapshot.floor(key, generation, revision, updatedAt);
    }
    ProcessIdentity process =
        new ProcessIdentity(
            row.getString(5), row.getString(6), row.getString(7), row.getLong(8), row.getString(9));
    return new LeaseSnapshot(
        key,
        generation,
        revision,
        state,
        new HolderIdentity(process, row.getString(10)),
        Duration.ofNanos(row.getLong(11)),
        updatedAt);
  }

  private static void setNullable(PreparedStatement statement, int index, @Nullable String value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.VARCHAR);
    } else {
      statement.setString(index, value);
    }
  }
}
