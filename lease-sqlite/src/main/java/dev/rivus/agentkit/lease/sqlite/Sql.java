/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

/**
 * Every statement the repository runs after the schema exists. Keys and values are always bound
 * parameters; no SQL text is ever built from a key.
 *
 * <p>The three writes compare inside the statement, so a save is one statement in the common case
 * and a batch of them needs no read per row. Their parameters are numbered, so a condition reuses a
 * value already bound for the new row instead of binding it twice (each bind is a native call).
 */
enum Sql {
  BEGIN_IMMEDIATE("BEGIN IMMEDIATE"),
  COMMIT("COMMIT"),
  ROLLBACK("ROLLBACK"),
  SELECT_RECORD(
      "SELECT l.generation, l.revision, l.state, h.holder_host, h.holder_boot_id,"
          + " h.holder_pid_namespace, h.holder_pid, h.holder_process_start, h.holder_handle,"
          + " l.updated_at_seconds, l.updated_at_nanos, l.holder_ttl_nanos"
          + " FROM lease l JOIN lease_holder h ON h.lease_key = l.lease_key WHERE l.lease_key = ?"),
  SELECT_ALL(
      "SELECT l.generation, l.revision, l.state, h.holder_host, h.holder_boot_id,"
          + " h.holder_pid_namespace, h.holder_pid, h.holder_process_start, h.holder_handle,"
          + " l.updated_at_seconds, l.updated_at_nanos, l.holder_ttl_nanos, l.lease_key"
          + " FROM lease l JOIN lease_holder h ON h.lease_key = l.lease_key"),
  SELECT_REVISION("SELECT revision FROM lease WHERE lease_key = ?"),
  SELECT_FLOOR(
      "SELECT (SELECT value FROM lease_meta WHERE name = 'generation_floor'),"
          + " (SELECT value FROM lease_meta WHERE name = 'revision_floor'),"
          + " (SELECT value FROM lease_meta WHERE name = 'floor_raised_at_seconds')"),

  /**
   * An acquisition or release over the expected revision: parameters {@code ?1}–{@code ?6} are the
   * record (see {@link Rows#bindUpdate}), {@code ?7} the key, {@code ?8} the expected revision,
   * {@code ?9} and {@code ?10} the holder's handle and host. Its holder goes to {@link
   * #WRITE_HOLDER} in the same transaction.
   *
   * <p>Besides the revision, an acquisition must raise the generation, and a release keep it and
   * come from the stored holder. Revisions never repeat for a key, so a writer of this release
   * never trips these checks; they stop a writer whose read predates a pruning if a process of
   * schema version 1, running on the file before its migration, created the key's new record from
   * revision 1 again.
   */
  WRITE_RECORD(
      "UPDATE lease SET generation = ?1, revision = ?2, state = ?3, holder_ttl_nanos = ?4,"
          + " updated_at_seconds = ?5, updated_at_nanos = ?6"
          + " WHERE lease_key = ?7 AND revision = ?8"
          + " AND CASE ?3 WHEN 'HELD' THEN generation < ?1 ELSE generation = ?1 AND EXISTS"
          + " (SELECT 1 FROM lease_holder h WHERE h.lease_key = ?7 AND h.holder_handle = ?9"
          + " AND h.holder_host = ?10) END"),

  /**
   * A renewal: the holder, generation, state and TTL stay (a renewal never changes them, see {@link
   * dev.rivus.agentkit.lease.LeaseWrite.Intent#RENEW}), so only the revision and time are written,
   * to the narrow {@code lease} row; 6 values bound, which with the step is most of a batch's cost.
   * The generation and state are compared, for the same reason as in {@link #WRITE_RECORD}.
   */
  RENEW_RECORD(
      "UPDATE lease SET revision = ?1, updated_at_seconds = ?2, updated_at_nanos = ?3"
          + " WHERE lease_key = ?4 AND revision = ?5 AND generation = ?6 AND state = 'HELD'"),

  /**
   * A record for a key that has none, with the parameters of {@link #WRITE_RECORD}: inserted only
   * if the expected revision is the floor's (0 when nothing was ever pruned) and the generation is
   * above the generation floor.
   */
  INSERT_RECORD(
      "INSERT INTO lease (generation, revision, state, holder_ttl_nanos, updated_at_seconds,"
          + " updated_at_nanos, lease_key)"
          + " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7"
          + " FROM lease_meta g, lease_meta r"
          + " WHERE g.name = 'generation_floor' AND r.name = 'revision_floor' AND ?1 > g.value"
          + " AND ?8 = CASE WHEN g.value > 0 OR r.value > 0 THEN max(r.value, 1) ELSE 0 END"
          + " ON CONFLICT (lease_key) DO NOTHING"),

  /** The holder of a record just written by an acquisition or release (see {@link Rows}). */
  WRITE_HOLDER(
      "INSERT INTO lease_holder (lease_key, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
          + " ON CONFLICT (lease_key) DO UPDATE SET holder_host = excluded.holder_host,"
          + " holder_boot_id = excluded.holder_boot_id,"
          + " holder_pid_namespace = excluded.holder_pid_namespace,"
          + " holder_pid = excluded.holder_pid,"
          + " holder_process_start = excluded.holder_process_start,"
          + " holder_handle = excluded.holder_handle"),
  SELECT_PRUNABLE(
      "SELECT count(*), max(generation), max(revision) FROM lease WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2))"),
  /** Before {@link #DELETE_PRUNABLE}: the trigger of {@link Schema} wants holders gone first. */
  DELETE_PRUNABLE_HOLDERS(
      "DELETE FROM lease_holder WHERE lease_key IN (SELECT lease_key FROM lease"
          + " WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2)))"),
  DELETE_PRUNABLE(
      "DELETE FROM lease WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2))"),
  RAISE_FLOORS(
      "UPDATE lease_meta SET value = max(value,"
          + " CASE name WHEN 'generation_floor' THEN ?1 ELSE ?2 END)"
          + " WHERE name IN ('generation_floor', 'revision_floor')"),
  SET_FLOOR_TIME("UPDATE lease_meta SET value = ? WHERE name = 'floor_raised_at_seconds'");

  private final String text;

  Sql(String text) {
    this.text = text;
  }

  String text() {
    return text;
  }
}
