/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Migrates a lease database of schema version 1 or 2 to version 3, once, inside the caller's {@code
 * BEGIN IMMEDIATE} transaction: no writer of any release can write between the check of the version
 * and the last change, and a crash leaves the file at the old version or at 3, never between.
 *
 * <p>What changes:
 *
 * <ul>
 *   <li>The one table {@code lease} of versions 1 and 2 is split into {@code lease} and {@code
 *       lease_holder} (see {@link Schema}): the old table is renamed, its rows copied, and it is
 *       dropped. A process of an earlier release that opened the file before and keeps running
 *       fails on its next statement (its columns are gone, and the trigger refuses its pruning), so
 *       it cannot write a record without its TTL.
 *   <li>The holder's TTL: version 1 never recorded it, so every row of version 1 gets {@code NULL}
 *       and reads with {@code LeaseConfig.MAX_DURATION}: an observer must then wait for the longest
 *       TTL any holder could have promised. Version 2 recorded it, valid only where its {@code
 *       ttl_revision = revision} (a process of version 1 could have written the row afterwards).
 *   <li>{@code lease_meta} gains {@code revision_floor} (from version 1). Version 1 did not keep
 *       the revisions it pruned, so for a file that had pruned (a generation floor above 0) the
 *       floor starts at the highest revision left in the table, at least 1: a best effort, which
 *       the generation check of every write backs up (see {@link Sql#WRITE_RECORD}).
 *   <li>The version moves to 3 in {@code lease_meta} and {@code PRAGMA user_version}, so that an
 *       earlier release refuses to open the file ("newer than this release understands").
 * </ul>
 */
final class SchemaMigration {

  private SchemaMigration() {}

  /** Runs inside the caller's write transaction, after it saw version 1 or 2 there. */
  static void from(Schema.Found version, Session session) throws SQLException {
    boolean version1 = version == Schema.Found.VERSION_1;
    try (Statement statement = session.connection().createStatement()) {
      statement.execute("ALTER TABLE lease RENAME TO lease_before_version_3");
      for (String sql : Schema.TABLES) {
        statement.execute(sql);
      }
      String ttl =
          version1
              ? "NULL"
              : "CASE WHEN ttl_revision = revision AND holder_ttl_nanos > 0"
                  + " THEN holder_ttl_nanos END";
      statement.execute(
          "INSERT INTO lease (lease_key, generation, revision, state, holder_ttl_nanos,"
              + " updated_at_seconds, updated_at_nanos)"
              + " SELECT lease_key, generation, revision, state, "
              + ttl
              + ", updated_at_seconds, updated_at_nanos FROM lease_before_version_3");
      statement.execute(
          "INSERT INTO lease_holder (lease_key, holder_host, holder_boot_id,"
              + " holder_pid_namespace, holder_pid, holder_process_start, holder_handle)"
              + " SELECT lease_key, holder_host, holder_boot_id, holder_pid_namespace, holder_pid,"
              + " holder_process_start, holder_handle FROM lease_before_version_3");
      statement.execute("DROP TABLE lease_before_version_3");
      if (version1) {
        long revisionFloor = 0;
        if (single(statement, "SELECT value FROM lease_meta WHERE name = 'generation_floor'") > 0) {
          revisionFloor = Math.max(1, single(statement, "SELECT max(revision) FROM lease"));
        }
        statement.execute(
            "INSERT INTO lease_meta (name, value) VALUES ('revision_floor', "
                + revisionFloor
                + ")");
      }
      statement.execute(
          "UPDATE lease_meta SET value = " + Schema.VERSION + " WHERE name = 'schema_version'");
      statement.execute("PRAGMA user_version = " + Schema.VERSION);
    }
  }

  private static long single(Statement statement, String sql) throws SQLException {
    try (ResultSet row = statement.executeQuery(sql)) {
      return row.next() ? row.getLong(1) : 0;
    }
  }
}
