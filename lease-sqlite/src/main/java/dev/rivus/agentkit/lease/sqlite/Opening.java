/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.sqlite.SQLiteConfig;
import org.sqlite.jdbc4.JDBC4Connection;

/**
 * Opens a lease database, under the opening lock of its key lock file: creates a missing file,
 * refuses one that cannot be this store (see {@link StorePath#checkExisting()}), pins the file with
 * the database's anchor, switches it to WAL mode, and recognizes, creates or migrates its schema.
 *
 * <p>Under the lock no repository of this release sees a file that another one is creating, so a
 * file that is empty or shorter than a header is never one being created: it was emptied or
 * truncated, and is refused. The schema is still created and migrated inside {@code BEGIN
 * IMMEDIATE}, re-read there, since processes of schema version 1 do not take the lock.
 */
final class Opening {

  private final StorePath store;
  private final SqliteOptions options;
  private final Schema schema;

  Opening(StorePath store, SqliteOptions options) {
    this.store = store;
    this.options = options;
    this.schema = new Schema(store.file());
  }

  /**
   * How long to wait for other processes to finish opening: at least {@link #MIN_OPENING_WAIT}.
   * Each holds the opening lock for a few milliseconds, but cold JVMs starting together on a loaded
   * machine (a cron minute, a deployment) queue behind each other's first use of SQLite; failing
   * them after the per-call busy wait, which is tuned for short writes, would refuse to open a
   * healthy database. Opening is no hot path: it may wait.
   */
  static Duration openingBudget(Duration busyWait) {
    return busyWait.compareTo(MIN_OPENING_WAIT) >= 0 ? busyWait : MIN_OPENING_WAIT;
  }

  /** The shortest wait for other processes' openings; see {@link #openingBudget}. */
  static final Duration MIN_OPENING_WAIT = Duration.ofSeconds(10);

  /**
   * Opens the database.
   *
   * @return the open database, anchored and checked
   * @throws LeaseRepositoryFailure if the file cannot be this store, or cannot be opened
   */
  Database open() {
    warmUp();
    refuseForeign();
    try (FileRangeLock.Held opening = store.lockForOpening(openingBudget(options.busyWait()))) {
      if (!store.checkExisting()) {
        if (!options.createIfMissing()) {
          throw missing(store.file()); // deleted since SqliteLeaseRepository.open looked
        }
        new Creation(store.file(), schema).create();
      }
      StoreIdentity identity = StoreIdentity.of(store.file());
      Database database = new Database(store.file(), options);
      try {
        database.anchor(identity);
        prepare(database);
        database.opened();
        return database;
      } catch (RuntimeException e) {
        database.close();
        throw e;
      }
    }
  }

  /**
   * Opens the database for reading only: writes nothing, to the file or next to it (no opening
   * lock, no WAL switch, no schema created or migrated), so that a database on a read-only file
   * system, or of another user, can be read.
   *
   * @return the open database, anchored and checked
   * @throws LeaseRepositoryFailure if the file cannot be this store, is not a lease database of
   *     this release's schema, or cannot be opened
   */
  Database openReadOnly() {
    warmUp();
    store.refuseNonSqlite();
    if (!store.checkExisting()) {
      throw missing(store.file());
    }
    StoreIdentity identity = StoreIdentity.of(store.file());
    Database database = new Database(store.file(), options, store.readingAccess());
    try {
      database.anchor(identity);
      Schema.Found found = database.read(null, "opening the database", schema::inspect);
      if (found != Schema.Found.CURRENT) {
        throw StorePath.unusable(
            store.file(),
            found == Schema.Found.EMPTY
                ? "it is an empty SQLite database, with no lease schema yet"
                : "its schema is of an earlier version ("
                    + found
                    + "), which only a writing opening migrates (lease run, release or prune)");
      }
      database.opened();
      return database;
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }

  /**
   * Refuses a file that is not a lease database before the opening lock creates the key lock file
   * beside it: any file that is no SQLite database; and, where there is no key lock file yet (so no
   * repository of this release opened it, nor is creating it), an SQLite database of another
   * application, whose schema is read without writing.
   */
  private void refuseForeign() {
    store.refuseNonSqlite();
    if (Files.exists(store.keyLockFile()) || !Files.isRegularFile(store.file())) {
      return;
    }
    try {
      if (Files.size(store.file()) < StorePath.HEADER_BYTES) {
        return; // refused under the lock as emptied or truncated
      }
    } catch (IOException e) {
      return; // said under the lock
    }
    Database probe = new Database(store.file(), options, store.readingAccess());
    try {
      probe.read(null, "opening the database", schema::inspect);
    } finally {
      probe.close();
    }
  }

  /** The failure of an opening without {@code createIfMissing} where there is no file. */
  static LeaseRepositoryFailure missing(Path file) {
    return new LeaseRepositoryFailure(
        null,
        "no lease database at " + file + " (opened without creating one: check the path)",
        null);
  }

  /**
   * Loads SQLite's native library and the driver's classes, on a database in memory, before the
   * opening lock is taken. In a new JVM that takes a few hundred milliseconds on a busy machine,
   * which other processes starting at the same time (a fleet restarted at once) would otherwise
   * spend waiting for the lock, within their busy wait; the work left under the lock takes tens. A
   * library that cannot load is a {@link LeaseRepositoryFailure} here, not an {@link
   * UnsatisfiedLinkError} at the first statement.
   */
  private static void warmUp() {
    Connections.preload();
    try (Connection memory =
            new JDBC4Connection(
                "jdbc:sqlite::memory:", ":memory:", new SQLiteConfig().toProperties());
        PreparedStatement select = memory.prepareStatement("SELECT ?")) {
      select.setLong(1, 1);
      select.executeQuery().close();
    } catch (SQLException e) {
      // Only a warm-up: if SQLite cannot load, the first real connection fails too, naming the
      // file.
    }
  }

  private void prepare(Database database) {
    database.write(
        null,
        "opening the database",
        SyncMode.FULL,
        session -> {
          // Inspect before changing anything, so another application's database is left untouched.
          Schema.Found found = schema.inspect(session);
          useWal(session);
          if (found != Schema.Found.CURRENT) {
            session.begin();
            Schema.Found now = schema.inspect(session);
            if (now == Schema.Found.EMPTY) {
              schema.create(session.connection());
            } else if (now != Schema.Found.CURRENT) {
              SchemaMigration.from(now, session);
            }
            session.commit();
          }
          return found; // not used: a value rather than null, for NullAway before JDK 22
        });
  }

  private void useWal(Session session) throws SQLException {
    try (Statement statement = session.connection().createStatement();
        ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
      String actual = mode.next() ? mode.getString(1) : "unknown";
      if (!"wal".equalsIgnoreCase(actual)) {
        throw StorePath.unusable(
            store.file(),
            "SQLite could not switch it to WAL mode (journal mode is "
                + actual
                + "); the file system may not support the shared memory WAL needs");
      }
    }
  }
}
