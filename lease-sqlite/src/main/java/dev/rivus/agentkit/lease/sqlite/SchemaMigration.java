package dev.rivus.agentkit.lease.sqlite;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Migrates a lease database of schema version 1 to version 2, once, inside the caller's {@code
 * BEGIN IMMEDIATE} transaction: no writer of either release can write between the check of the
 * version and the last change, and a crash leaves the file at version 1 or 2, never between.
 *
 * <p>What changes:
 *
 * <ul>
 *   <li>{@code lease} gains {@code holder_ttl_nanos} and {@code ttl_revision}, both 0 on every
 *       existing row. A TTL counts only where {@code ttl_revision = revision}, so every row written
 *       by version 1 reads with {@code LeaseConfig.MAX_DURATION}: its holder's TTL was never
 *       recorded, and an observer must then wait for the longest TTL any holder could have
 *       promised. That also holds for rows that a process of version 1, which opened the file
 *       before the migration and keeps running, writes afterwards: its statements name their
 *       columns, still work, and leave both new columns as they were, so a TTL left by an earlier
 *       writer of version 2 stops counting at the first such write.
 *   <li>{@code lease_meta} gains {@code revision_floor}. Version 1 did not keep the revisions it
 *       pruned, so for a file that had pruned (a generation floor above 0) the floor starts at the
 *       highest revision left in the table, at least 1: a best effort, which the generation check
 *       of every write backs up (see {@link Sql#WRITE_RECORD}).
 *   <li>The version moves to 2 in {@code lease_meta} and {@code PRAGMA user_version}, so that a
 *       release of version 1 refuses to open the file ("newer than this release understands").
 * </ul>
 */
final class SchemaMigration {

  private SchemaMigration() {}

  /** Runs inside the caller's write transaction, after it saw version 1 there. */
  static void fromVersion1(Session session) throws SQLException {
    try (Statement statement = session.connection().createStatement()) {
      for (String column : Schema.TTL_COLUMNS) {
        statement.execute("ALTER TABLE lease ADD COLUMN " + column);
      }
      long revisionFloor = 0;
      if (single(statement, "SELECT value FROM lease_meta WHERE name = 'generation_floor'") > 0) {
        revisionFloor = Math.max(1, single(statement, "SELECT max(revision) FROM lease"));
      }
      statement.execute(
          "INSERT INTO lease_meta (name, value) VALUES ('revision_floor', " + revisionFloor + ")");
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
