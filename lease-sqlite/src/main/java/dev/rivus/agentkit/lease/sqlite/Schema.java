/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Creates the schema and recognizes it afterwards.
 *
 * <p>A lease database is marked twice: {@code PRAGMA application_id} holds {@link #APPLICATION_ID}
 * (the bytes "LEAS"), so a file of another application is recognized before anything is written to
 * it, and the {@code lease_meta} table holds the schema version (mirrored in {@code PRAGMA
 * user_version}), so that a later release can migrate the schema and an earlier one refuses a newer
 * one instead of misreading it (see {@link SchemaMigration} for versions 1 and 2).
 *
 * <p>Version 3:
 *
 * <ul>
 *   <li>{@code lease}: one row per key, what a renewal rewrites and nothing more (generation,
 *       revision, state, the holder's TTL, time); the key is a BLOB in WTF-8 (see {@link
 *       KeyBytes}); {@code WITHOUT ROWID}, so the row lives in the primary key's B-tree and a
 *       lookup touches one tree. No index on age: pruning is rare and scans the table; an index
 *       would cost every write. {@code holder_ttl_nanos} is the TTL the holder promised, {@code
 *       NULL} for a record migrated from version 1, which never recorded it (read as the longest
 *       TTL any holder could have promised).
 *   <li>{@code lease_holder}: the holder of each key's record, written by acquisitions and releases
 *       only. Apart from {@code lease} because a renewal rewrites its whole row: the holder's
 *       columns are three quarters of a row, and a round of 100,000 renewals rewrote 18 MiB of
 *       pages instead of 4 (measured: a quarter of the round's CPU). A trigger refuses to delete a
 *       {@code lease} row whose holder row is still there, and nothing else writes holder columns
 *       to {@code lease}: a process of an earlier release that keeps running on a migrated file
 *       fails on its first statement instead of writing a record without its TTL.
 *   <li>{@code lease_meta}: {@code schema_version}, {@code generation_floor} and {@code
 *       revision_floor} (the highest generation and revision ever pruned; a key created later
 *       starts above both) and {@code floor_raised_at_seconds}.
 * </ul>
 */
final class Schema {

  /** {@code PRAGMA application_id} of a lease database: "LEAS" in ASCII. */
  static final int APPLICATION_ID = 0x4C454153;

  /** The schema version this release writes and reads. */
  static final int VERSION = 3;

  /** The tables and trigger of version 3, apart from {@code lease_meta}. */
  static final List<String> TABLES =
      List.of(
          "CREATE TABLE lease ("
              + " lease_key BLOB PRIMARY KEY NOT NULL,"
              + " generation INTEGER NOT NULL CHECK (generation >= 0),"
              + " revision INTEGER NOT NULL CHECK (revision > 0),"
              + " state TEXT NOT NULL CHECK (state IN ('HELD', 'RELEASED')),"
              + " holder_ttl_nanos INTEGER,"
              + " updated_at_seconds INTEGER NOT NULL,"
              + " updated_at_nanos INTEGER NOT NULL"
              + ") WITHOUT ROWID",
          "CREATE TABLE lease_holder ("
              + " lease_key BLOB PRIMARY KEY NOT NULL,"
              + " holder_host TEXT NOT NULL,"
              + " holder_boot_id TEXT,"
              + " holder_pid_namespace TEXT,"
              + " holder_pid INTEGER NOT NULL,"
              + " holder_process_start TEXT,"
              + " holder_handle TEXT NOT NULL"
              + ") WITHOUT ROWID",
          "CREATE TRIGGER lease_keeps_its_holder BEFORE DELETE ON lease"
              + " WHEN EXISTS (SELECT 1 FROM lease_holder WHERE lease_key = OLD.lease_key)"
              + " BEGIN SELECT RAISE(ABORT, 'lease schema version 3: delete the lease_holder row"
              + " first; a release older than version 3 must not write this database'); END");

  private static final List<String> CREATE =
      concat(
          List.of(
              "CREATE TABLE lease_meta ("
                  + " name TEXT PRIMARY KEY NOT NULL,"
                  + " value INTEGER NOT NULL"
                  + ") WITHOUT ROWID",
              "INSERT INTO lease_meta (name, value) VALUES ('schema_version', "
                  + VERSION
                  + "), ('generation_floor', 0), ('revision_floor', 0),"
                  + " ('floor_raised_at_seconds', 0)"),
          TABLES,
          List.of("PRAGMA application_id = " + APPLICATION_ID, "PRAGMA user_version = " + VERSION));

  private final Path file;

  Schema(Path file) {
    this.file = file;
  }

  /** What the file holds, as far as its header and catalogue tell. */
  enum Found {
    /** A valid SQLite file with no schema at all: a lease database not yet created. */
    EMPTY,
    /** A lease database of schema version 1, to be migrated. */
    VERSION_1,
    /** A lease database of schema version 2, to be migrated. */
    VERSION_2,
    /** A lease database of this release's schema. */
    CURRENT
  }

  /**
   * Reads the header and catalogue without writing anything.
   *
   * @return what the file is
   * @throws LeaseRepositoryFailure if it is another application's database, a newer schema, or a
   *     damaged lease database
   * @throws SQLException if SQLite cannot read it (not a database, corrupt, busy)
   */
  Found inspect(Session session) throws SQLException {
    try (Statement statement = session.connection().createStatement()) {
      // One SELECT, so one read snapshot: read one by one, the three facts could straddle the
      // commit of another process creating the schema, and a new lease database would look foreign.
      int applicationId;
      int userVersion;
      int objects;
      try (ResultSet facts =
          statement.executeQuery(
              "SELECT (SELECT application_id FROM pragma_application_id()),"
                  + " (SELECT user_version FROM pragma_user_version()),"
                  + " (SELECT count(*) FROM sqlite_schema)")) {
        facts.next();
        applicationId = facts.getInt(1);
        userVersion = facts.getInt(2);
        objects = facts.getInt(3);
      }
      if (applicationId == 0 && userVersion == 0 && objects == 0) {
        return Found.EMPTY;
      }
      if (applicationId != APPLICATION_ID) {
        throw new LeaseRepositoryFailure(
            null,
            String.format(
                Locale.ROOT,
                "%s is not a lease database: it is an SQLite database of another application"
                    + " (application_id 0x%08X, user_version %d, %d schema objects); give the lease"
                    + " repository a file of its own",
                file,
                applicationId,
                userVersion,
                objects),
            null);
      }
      Found found = byVersion(schemaVersion(statement));
      if (found == Found.CURRENT && count(statement, "lease_holder") != 1) {
        throw new LeaseRepositoryFailure(
            null,
            file
                + " has lease schema version "
                + VERSION
                + " but lacks its table lease_holder; the file is damaged",
            null);
      }
      return found;
    }
  }

  private Found byVersion(int version) {
    if (version > VERSION) {
      throw new LeaseRepositoryFailure(
          null,
          file
              + " has lease schema version "
              + version
              + ", newer than this release understands (version "
              + VERSION
              + "); use the release that wrote it or a newer one",
          null);
    }
    if (version == VERSION) {
      return Found.CURRENT;
    }
    if (version == 1) {
      return Found.VERSION_1;
    }
    if (version == 2) {
      return Found.VERSION_2;
    }
    throw new LeaseRepositoryFailure(
        null,
        file
            + " has lease schema version "
            + version
            + ", which no release ever wrote;"
            + " the file is damaged",
        null);
  }

  /** Creates the tables inside the caller's write transaction. */
  void create(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : CREATE) {
        statement.execute(sql);
      }
    }
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> all = new ArrayList<>();
    for (List<String> part : parts) {
      all.addAll(part);
    }
    return List.copyOf(all);
  }

  private static int count(Statement statement, String table) throws SQLException {
    try (ResultSet row =
        statement.executeQuery(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '" + table + "'")) {
      return row.next() ? row.getInt(1) : 0;
    }
  }

  private int schemaVersion(Statement statement) throws SQLException {
    int tables;
    try (ResultSet row =
        statement.executeQuery(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
                + " AND name IN ('lease', 'lease_meta')")) {
      tables = row.next() ? row.getInt(1) : 0;
    }
    if (tables != 2) {
      throw new LeaseRepositoryFailure(
          null,
          file + " is marked as a lease database but lacks its tables; the file is damaged",
          null);
    }
    try (ResultSet row =
        statement.executeQuery("SELECT value FROM lease_meta WHERE name = 'schema_version'")) {
      if (!row.next()) {
        throw new LeaseRepositoryFailure(
            null,
            file + " is a lease database without a schema version; the file is damaged",
            null);
      }
      return row.getInt(1);
    }
  }
}
