/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.testkit.Samples;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Schema version 2 as the release before schema version 3 wrote it, kept as test data: version 1's
 * table with the two TTL columns that version 2 added, and its insert of a whole record.
 */
final class SchemaV2 {

  /** Version 2's insert of a new record, TTL columns included. */
  static final String INSERT =
      "INSERT INTO lease (generation, revision, state, holder_host, holder_boot_id,"
          + " holder_pid_namespace, holder_pid, holder_process_start, holder_handle,"
          + " updated_at_seconds, updated_at_nanos, lease_key, holder_ttl_nanos, ttl_revision)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private SchemaV2() {}

  /** Creates a database of version 2, as its release did (version 1's tables, migrated). */
  static void create(Path file) throws SQLException {
    SchemaV1.create(file);
    try (Connection connection = SchemaV1.connect(file);
        Statement statement = connection.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      statement.execute("ALTER TABLE lease ADD COLUMN holder_ttl_nanos INTEGER NOT NULL DEFAULT 0");
      statement.execute("ALTER TABLE lease ADD COLUMN ttl_revision INTEGER NOT NULL DEFAULT 0");
      statement.execute("INSERT INTO lease_meta (name, value) VALUES ('revision_floor', 0)");
      statement.execute("UPDATE lease_meta SET value = 2 WHERE name = 'schema_version'");
      statement.execute("PRAGMA user_version = 2");
      statement.execute("COMMIT");
    }
  }

  /**
   * Inserts a row as version 2 did, with the TTL it recorded and the revision that TTL was written
   * at (a row last written by a process of version 1 has another).
   */
  static void insert(
      Path file,
      String key,
      long generation,
      long revision,
      String handle,
      long ttlNanos,
      long ttlRevision)
      throws SQLException {
    try (Connection connection = SchemaV1.connect(file);
        PreparedStatement insert = connection.prepareStatement(INSERT)) {
      insert.setLong(13, ttlNanos);
      insert.setLong(14, ttlRevision);
      SchemaV1.write(insert, key, generation, revision, "HELD", handle, Samples.TIME);
    }
  }
}
