/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Where a lease database is: the real file behind the path given (symbolic links resolved), and its
 * key lock file named after that real file, so that a database opened through a link and one opened
 * by its real name share one key lock. Checks what SQLite would only report as "unable to open
 * database file", or not at all.
 *
 * @param file the real path of the database file (it may not exist yet)
 * @param keyLockFile {@code <file>.fence}
 */
record StorePath(Path file, Path keyLockFile) {

  /**
   * The byte of the key lock file locked while a repository creates or checks the database: beyond
   * every byte a key lock uses ({@link FileRangeLock#ofHash} locks {@code hash >>> 2}, below
   * 2<sup>62</sup>), so opening never waits for fenced work, nor fenced work for an opening.
   */
  static final long OPENING_BYTE = 1L << 62;

  /** The size of an SQLite database header: no database file is shorter. */
  static final int HEADER_BYTES = 100;

  /** The first bytes of every SQLite database file: "SQLite format 3" and a NUL. */
  private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

  /**
   * Resolves the path given to its real file: an existing file through its links, a new one as the
   * real directory plus the name.
   *
   * @throws LeaseRepositoryFailure if the directory is missing or read-only, the path is a
   *     directory, a read-only file, or a link to nothing
   */
  static StorePath resolve(Path given) {
    Path absolute = given.toAbsolutePath();
    Path file = realFile(absolute);
    if (Files.isDirectory(file)) {
      throw unusable(file, "it is a directory, not a database file");
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw unusable(
          file,
          "the file is read-only (check its permissions, owner and immutable attribute, and whether"
              + " the file system is mounted read-only); the lease repository writes to it");
    }
    Path directory = file.getParent();
    if (directory == null || !Files.isWritable(directory)) {
      throw unusable(
          file,
          "its directory "
              + directory
              + " is read-only; SQLite creates the -wal and -shm files next to the database");
    }
    return new StorePath(file, file.resolveSibling(file.getFileName() + ".fence"));
  }

  /**
   * Resolves the path of an existing database to be opened for reading only: as {@link #resolve},
   * but the file and its directory may be read-only.
   *
   * @throws LeaseRepositoryFailure if the path is a directory, a link to nothing, or names no file
   */
  static StorePath resolveForReading(Path given) {
    Path file = realFile(given.toAbsolutePath());
    if (Files.isDirectory(file)) {
      throw unusable(file, "it is a directory, not a database file");
    }
    return new StorePath(file, file.resolveSibling(file.getFileName() + ".fence"));
  }

  /**
   * How to read the database without writing anything: with SQLite's write-ahead log and index as
   * usual, unless the directory is read-only and holds no log, where SQLite could create neither
   * and cannot open a database in WAL mode otherwise; there the file is read as immutable, which is
   * what it is while nothing can write next to it.
   */
  Connections.Access readingAccess() {
    Path directory = file.getParent();
    Path wal = file.resolveSibling(file.getFileName() + "-wal");
    boolean directoryWritable = directory != null && Files.isWritable(directory);
    return directoryWritable || Files.exists(wal)
        ? Connections.Access.READ_ONLY
        : Connections.Access.IMMUTABLE;
  }

  private static Path realFile(Path absolute) {
    try {
      if (Files.exists(absolute)) {
        return absolute.toRealPath();
      }
      if (Files.isSymbolicLink(absolute)) {
        throw unusable(
            absolute,
            "it is a symbolic link to "
                + Files.readSymbolicLink(absolute)
                + ", which does not exist; a lease database is only ever opened through a link to"
                + " a database that exists, so that every name of it leads to one file and one"
                + " key lock: create the database by its real name, or remove the link");
      }
      Path directory = absolute.getParent();
      Path name = absolute.getFileName();
      if (directory == null || name == null) {
        throw unusable(absolute, "the path names no file in a directory");
      }
      if (!Files.isDirectory(directory)) {
        throw unusable(
            absolute,
            "its directory "
                + directory
                + (Files.exists(directory) ? " is not a directory" : " does not exist")
                + "; create it first");
      }
      return directory.toRealPath().resolve(name);
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null,
          "cannot open lease database " + absolute + ": cannot resolve its path (" + e + ")",
          e);
    }
  }

  /**
   * Takes the opening lock: creating the file and the checks of opening happen under it, so no
   * other repository of this release sees a file half created, nor creates it twice.
   *
   * @throws LeaseRepositoryFailure if another process held it beyond the budget, or the thread was
   *     interrupted (its interrupt flag is then set again)
   */
  FileRangeLock.Held lockForOpening(Duration budget) {
    try {
      return FileRangeLock.of(keyLockFile, OPENING_BYTE, 1).lock(budget);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unusable(file, "interrupted while waiting for another process to finish opening it");
    } catch (LeaseRepositoryFailure e) {
      throw new LeaseRepositoryFailure(
          null,
          "cannot open lease database "
              + file
              + ": another process kept opening it for longer than "
              + budget.toSeconds()
              + " s ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /**
   * Refuses an existing file that cannot be this store: one with another name (a hard link), or one
   * emptied or cut short. Runs under the opening lock, where a file this release creates is never
   * seen half written.
   *
   * @return whether the file exists
   */
  boolean checkExisting() {
    long size;
    try {
      if (!Files.exists(file)) {
        return false;
      }
      size = Files.size(file);
      long links = links(file);
      if (links > 1) {
        throw unusable(
            file,
            "the file has "
                + links
                + " hard links; SQLite keeps the write-ahead log and its locks next to the name a"
                + " file is opened by, so each name would be a database of its own with its own"
                + " key lock, and two holders of one key could run at once. Remove the other names"
                + " (find them with: find / -xdev -samefile "
                + file
                + "); use a symbolic link to give the database another name");
      }
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null,
          "cannot open lease database " + file + ": cannot read its attributes (" + e + ")",
          e);
    }
    if (size < HEADER_BYTES) {
      throw unusable(
          file,
          (size == 0 ? "the file is empty (0 bytes)" : "the file is only " + size + " bytes long")
              + ", so it was emptied or truncated. A lease database that was emptied or truncated"
              + " is never adopted, since its generations would restart and holders of the lost"
              + " records may still run. Stop every process that used it, then delete "
              + file
              + "* to start a new database (see docs/sqlite.md, \"Resetting a store\"), or restore"
              + " it from a backup made with sqlite3's .backup");
    }
    return true;
  }

  /**
   * Refuses an existing file that is no SQLite database at all (a text file, a file of another
   * program): one whose first bytes are not, nor begin, SQLite's header. Needs no lock and writes
   * nothing, so that nothing is left beside a file that is not ours: a file a repository is
   * creating starts with the header as soon as it has bytes, and an emptied one has none.
   *
   * @throws LeaseRepositoryFailure if the file is not an SQLite database, or cannot be read
   */
  void refuseNonSqlite() {
    byte[] start = new byte[MAGIC.length];
    int read = 0;
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; read < start.length && (n = in.read(start, read, start.length - read)) > 0; ) {
        read += n;
      }
    } catch (NoSuchFileException gone) {
      return; // created, or refused as missing, later
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot open lease database " + file + ": cannot read it (" + e + ")", e);
    }
    if (!Arrays.equals(start, 0, read, MAGIC, 0, read)) {
      throw new LeaseRepositoryFailure(
          null,
          file
              + " is not a lease database: it is not an SQLite database (it does not start with"
              + " SQLite's header); give the lease repository a file of its own",
          null);
    }
  }

  /** The number of names the file has, or 1 where the file system does not tell. */
  private static long links(Path file) throws IOException {
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("unix")) {
      return 1;
    }
    Object links = Files.getAttribute(file, "unix:nlink");
    return links instanceof Number number ? number.longValue() : 1;
  }

  static LeaseRepositoryFailure unusable(Path file, String why) {
    return unusable(file, why, null);
  }

  static LeaseRepositoryFailure unusable(Path file, String why, @Nullable Throwable cause) {
    return new LeaseRepositoryFailure(
        null, "cannot open lease database " + file + ": " + why, cause);
  }
}
