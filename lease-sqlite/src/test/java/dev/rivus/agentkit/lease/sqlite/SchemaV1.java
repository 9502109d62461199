/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;

/**
 * Schema version 1 as the release before schema version 2 created and wrote it, kept as test data:
 * its DDL and its two write statements, verbatim, run over raw JDBC as a process of that release
 * would.
 */
final class SchemaV1 {

  /** The DDL of version 1, run after {@code PRAGMA journal_mode = WAL} in one transaction. */
  static final List<String> DDL =
      List.of(
          "CREATE TABLE lease_meta ("
              + " name TEXT PRIMARY KEY NOT NULL,"
              + " value INTEGER NOT NULL"
              + ") WITHOUT ROWID",
          "INSERT INTO lease_meta (name, value) VALUES ('schema_version', 1),"
              + " ('generation_floor', 0), ('floor_raised_at_seconds', 0)",
          "CREATE TABLE lease ("
              + " lease_key BLOB PRIMARY KEY NOT NULL,"
              + " generation INTEGER NOT NULL CHECK (generation >= 0),"
              + " revision INTEGER NOT NULL CHECK (revision > 0),"
              + " state TEXT NOT NULL CHECK (state IN ('HELD', 'RELEASED')),"
              + " holder_host TEXT NOT NULL,"
              + " holder_boot_id TEXT,"
              + " holder_pid_namespace TEXT,"
              + " holder_pid INTEGER NOT NULL,"
              + " holder_process_start TEXT,"
              + " holder_handle TEXT NOT NULL,"
              + " updated_at_seconds INTEGER NOT NULL,"
              + " updated_at_nanos INTEGER NOT NULL"
              + ") WITHOUT ROWID",
          "PRAGMA application_id = 1279607123",
          "PRAGMA user_version = 1");

  /** Version 1's insert of a new record. */
  static final String INSERT =
      "INSERT INTO lease (generation, revision, state, holder_host, holder_boot_id,"
          + " holder_pid_namespace, holder_pid, holder_process_start, holder_handle,"
          + " updated_at_seconds, updated_at_nanos, lease_key)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /** Version 1's update of a record, run after it compared the revision in the transaction. */
  static final String UPDATE =
      "UPDATE lease SET generation = ?, revision = ?, state = ?, holder_host = ?, holder_boot_id = ?,"
          + " holder_pid_namespace = ?, holder_pid = ?, holder_process_start = ?, holder_handle = ?,"
          + " updated_at_seconds = ?, updated_at_nanos = ? WHERE lease_key = ?";

  private SchemaV1() {}

  /** Creates a database of version 1, as its release did on first open. */
  static void create(Path file) throws SQLException {
    try (Connection connection = connect(file);
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA journal_mode = WAL");
      statement.execute("BEGIN IMMEDIATE");
      for (String sql : DDL) {
        statement.execute(sql);
      }
      statement.execute("COMMIT");
    }
  }

  static Connection connect(Path file) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file);
  }

  /** Runs {@link #INSERT} or {@link #UPDATE} with a row of {@link Records#holder}. */
  static void write(
      PreparedStatement statement,
      String key,
      long generation,
      long revision,
      String state,
      String handle,
      Instant updatedAt)
      throws SQLException {
    statement.setLong(1, generation);
    statement.setLong(2, revision);
    statement.setString(3, state);
    ProcessIdentity process = Samples.holder(handle).process();
    statement.setString(4, process.host());
    statement.setString(5, process.bootId());
    statement.setString(6, process.pidNamespace());
    statement.setLong(7, process.pid());
    statement.setString(8, process.processStart());
    statement.setString(9, handle);
    statement.setLong(10, updatedAt.getEpochSecond());
    statement.setLong(11, updatedAt.getNano());
    statement.setBytes(12, KeyBytes.encode(key));
    statement.executeUpdate();
  }

  /** Inserts a row as version 1 did, in its own transaction. */
  static void insert(
      Path file, String key, long generation, long revision, String state, String handle)
      throws SQLException {
    try (Connection connection = connect(file);
        PreparedStatement insert = connection.prepareStatement(INSERT)) {
      write(insert, key, generation, revision, state, handle, Samples.TIME);
    }
  }

  /** Sets a value of {@code lease_meta}, as version 1's pruning did. */
  static void setMeta(Path file, String name, long value) throws SQLException {
    try (Connection connection = connect(file);
        PreparedStatement update =
            connection.prepareStatement("UPDATE lease_meta SET value = ? WHERE name = ?")) {
      update.setLong(1, value);
      update.setString(2, name);
      update.executeUpdate();
    }
  }
}
