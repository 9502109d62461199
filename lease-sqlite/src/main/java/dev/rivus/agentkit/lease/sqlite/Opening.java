package dev.rivus.agentkit.lease.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The first steps on a database file: checks that say plainly what is wrong with the path, then the
 * schema, created on first open inside {@code BEGIN IMMEDIATE} (two processes opening a new file at
 * once create it exactly once) and recognized afterwards.
 */
final class Opening {

  private final Path file;
  private final Database database;
  private final Schema schema;

  Opening(Path file, Database database) {
    this.file = file;
    this.database = database;
    this.schema = new Schema(file);
  }

  /**
   * Resolves the path and checks what SQLite would only report as "unable to open database file".
   */
  static Path checkedPath(Path given) {
    Path file = given.toAbsolutePath().normalize();
    Path directory = file.getParent();
    if (directory == null || file.getFileName() == null) {
      throw Database.unusable(file, "the path names no file in a directory", null);
    }
    if (!Files.isDirectory(directory)) {
      throw Database.unusable(
          file,
          "its directory "
              + directory
              + (Files.exists(directory) ? " is not a directory" : " does not exist")
              + "; create it first",
          null);
    }
    if (Files.isDirectory(file)) {
      throw Database.unusable(file, "it is a directory, not a database file", null);
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw Database.unusable(
          file,
          "the file is read-only (check its permissions, owner and immutable attribute, and whether"
              + " the file system is mounted read-only); the lease repository writes to it",
          null);
    }
    if (!Files.isWritable(directory)) {
      throw Database.unusable(
          file,
          "its directory "
              + directory
              + " is read-only; SQLite creates the -wal and -shm files next to the database",
          null);
    }
    return file;
  }

  /** Recognizes or creates the schema and switches the file to WAL mode. */
  void prepare() {
    database.write(
        null,
        "opening the database",
        SyncMode.FULL,
        session -> {
          // Inspect before changing anything, so another application's database is left untouched.
          Schema.Found found = schema.inspect(session);
          useWal(session);
          if (found == Schema.Found.EMPTY) {
            session.begin();
            if (schema.inspect(session) == Schema.Found.EMPTY) {
              schema.create(session);
            }
            session.commit();
          }
          return null;
        });
  }

  private void useWal(Session session) throws SQLException {
    try (Statement statement = session.connection().createStatement();
        ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
      String actual = mode.next() ? mode.getString(1) : "unknown";
      if (!"wal".equalsIgnoreCase(actual)) {
        throw Database.unusable(
            file,
            "SQLite could not switch it to WAL mode (journal mode is "
                + actual
                + "); the file system may not support the shared memory WAL needs",
            null);
      }
    }
  }
}
