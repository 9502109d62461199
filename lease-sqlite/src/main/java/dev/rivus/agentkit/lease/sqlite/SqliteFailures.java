/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteException;

/**
 * Turns SQLite's result codes into {@link LeaseRepositoryFailure}s that say what happened, to which
 * file, during what. No {@link SQLException} leaves the repository.
 */
final class SqliteFailures {

  // Primary result codes, https://www.sqlite.org/rescode.html
  private static final int BUSY = 5;
  private static final int LOCKED = 6;
  private static final int NOMEM = 7;
  private static final int READONLY = 8;
  private static final int IOERR = 10;
  private static final int CORRUPT = 11;
  private static final int FULL = 13;
  private static final int CANTOPEN = 14;
  private static final int NOTADB = 26;

  /** Extended code: the database file was unlinked or moved since it was opened. */
  private static final int READONLY_DBMOVED = READONLY | (4 << 8);

  private final Path file;

  SqliteFailures(Path file) {
    this.file = file;
  }

  /** Whether the failure only means that another connection holds a lock for now. */
  static boolean isBusy(SQLException e) {
    int code = primaryCode(e);
    return code == BUSY || code == LOCKED;
  }

  /**
   * Whether the failure means that the file is no longer a lease database: corrupt, not a database,
   * moved away, or without the lease table (emptied and recreated by hand).
   */
  static boolean meansNoLeaseDatabase(SQLException e) {
    int code = primaryCode(e);
    String message = String.valueOf(e.getMessage());
    return code == CORRUPT
        || code == NOTADB
        || extendedCode(e) == READONLY_DBMOVED
        || message.contains("no such table: lease");
  }

  LeaseRepositoryFailure translate(@Nullable String key, String operation, SQLException e) {
    return new LeaseRepositoryFailure(
        key,
        "lease database "
            + file
            + ": "
            + explain(e)
            + " while "
            + operation
            + " ("
            + e.getMessage()
            + ")",
        e);
  }

  LeaseRepositoryFailure busy(
      @Nullable String key,
      String operation,
      String holder,
      long waitedNanos,
      int attempts,
      Duration budget,
      @Nullable Exception last) {
    return new LeaseRepositoryFailure(
        key,
        String.format(
            Locale.ROOT,
            "lease database %s: gave up %s after waiting %.3f s over %d attempt(s) (busy wait"
                + " budget %s): %s; raise SqliteOptions.busyWait if such waits are expected",
            file,
            operation,
            waitedNanos / 1e9,
            attempts,
            budget,
            holder),
        last);
  }

  LeaseRepositoryFailure interrupted(
      @Nullable String key, String operation, InterruptedException e) {
    return new LeaseRepositoryFailure(
        key,
        "lease database "
            + file
            + ": interrupted while waiting to go on "
            + operation
            + "; the thread's interrupt flag is set again",
        e);
  }

  /** Says what the failure means, in words. */
  String explain(SQLException e) {
    switch (primaryCode(e)) {
      case BUSY:
      case LOCKED:
        return "the database is locked by another connection";
      case READONLY:
        return "the database is read-only (check the permissions and immutable attribute of the file"
            + " and its directory, and whether the file system is mounted read-only)";
      case IOERR:
        // SQLite reports a full disk as an I/O error when it cannot grow the WAL's index.
        return diskFull()
            ? "an I/O error occurred, and the disk is full"
            : "an I/O error occurred (failing disk, a file system that went away, or a network"
                + " file system, which this repository does not support)";
      case CORRUPT:
        return "the database file is corrupt; restore it from a backup, or stop every holder and"
            + " start a new database (see docs/sqlite.md, \"Resetting a store\")";
      case FULL:
        return "the disk is full (or the database reached its page limit)";
      case CANTOPEN:
        return "the database file cannot be opened (missing directory, no permission, or too many"
            + " open files)";
      case NOTADB:
        return "the file is not an SQLite database";
      case NOMEM:
        return "SQLite ran out of memory";
      default:
        return "SQLite failed";
    }
  }

  private boolean diskFull() {
    try {
      Path directory = file.getParent();
      return directory != null && Files.getFileStore(directory).getUsableSpace() == 0;
    } catch (IOException | RuntimeException unknown) {
      return false;
    }
  }

  private static int primaryCode(SQLException e) {
    return extendedCode(e) & 0xFF;
  }

  private static int extendedCode(SQLException e) {
    return e instanceof SQLiteException sqlite ? sqlite.getResultCode().code : e.getErrorCode();
  }
}
