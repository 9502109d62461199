/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileModes;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.sqlite.SQLiteConfig;
import org.sqlite.jdbc4.JDBC4Connection;

/**
 * Creates a new lease database so that the path never shows an empty or half-made file: the schema
 * is written to {@code <file>.creating} with a rollback journal and synced, then the complete file
 * is renamed into place and the directory synced. SQLite would create the file empty and write its
 * first page only at the first commit, so a crash between the two would leave a 0-byte file, which
 * every later opener refuses as emptied.
 *
 * <p>A write-ahead log and its index left at the path by a database deleted alone ({@code rm
 * leases.db}) are deleted before the new file takes the name: SQLite would otherwise apply the old
 * log to the new database, and share the index with processes still holding the old one open.
 * Nothing else can be using them, since the database they belonged to is gone.
 *
 * <p>Runs under the opening lock, which makes the temporary name this process's own; one left by a
 * crash is deleted first.
 */
final class Creation {

  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
  private static final boolean MAC_OS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac");

  private final Path file;
  private final Path temporary;
  private final Schema schema;

  Creation(Path file, Schema schema) {
    this.file = file;
    this.temporary = file.resolveSibling(file.getFileName() + ".creating");
    this.schema = schema;
  }

  /**
   * Creates the database file with its schema.
   *
   * @throws LeaseRepositoryFailure if it cannot be written, or another program created the file
   *     meanwhile
   */
  void create() {
    try {
      deleteTemporary();
      // Created here, not by SQLite, which would make it rw-rw-rw- under umask 000; SQLite gives
      // its journal, write-ahead log and index the database file's permissions.
      Files.createFile(temporary, FileModes.file());
      writeSchema();
      deleteCompanions(file);
      Files.move(temporary, file); // no REPLACE_EXISTING: never over a file made meanwhile
      // The path is resolved, so it names the file in its directory.
      syncDirectory(Objects.requireNonNull(file.getParent(), "file's directory"));
    } catch (FileAlreadyExistsException e) {
      deleteQuietly();
      throw StorePath.unusable(
          file, "another program created the file while this one was creating it; try again", e);
    } catch (IOException | SQLException e) {
      deleteQuietly();
      throw StorePath.unusable(file, "cannot create it (" + e + ")", e);
    }
  }

  private void writeSchema() throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setJournalMode(SQLiteConfig.JournalMode.DELETE);
    config.enableFullSync(MAC_OS); // see Database
    String name = temporary.toString();
    try (Connection connection =
            new JDBC4Connection("jdbc:sqlite:" + name, name, config.toProperties());
        Statement statement = connection.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      schema.create(connection);
      statement.execute("COMMIT");
    }
  }

  /** Deletes the journal, log and index named after {@code database}. */
  private static void deleteCompanions(Path database) throws IOException {
    for (String suffix : List.of("-journal", "-wal", "-shm")) {
      Files.deleteIfExists(database.resolveSibling(database.getFileName() + suffix));
    }
  }

  private void deleteTemporary() throws IOException {
    deleteCompanions(temporary);
    Files.deleteIfExists(temporary);
  }

  private void deleteQuietly() {
    try {
      deleteTemporary();
    } catch (IOException e) {
      // the next creation deletes them under the same lock
    }
  }

  /**
   * Makes the rename durable. Windows cannot open a directory as a file and makes renames durable
   * on its own terms, so there the step is skipped.
   */
  private static void syncDirectory(Path directory) throws IOException {
    if (WINDOWS) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
