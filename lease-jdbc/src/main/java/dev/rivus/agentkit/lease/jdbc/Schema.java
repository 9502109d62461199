/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The repository's two tables: the records ({@code <table>}) and the generation table ({@code
 * <table>_fence}: one generation row per key, the generation of its last acquisition). Their
 * statements are the DDL files shipped in this package ({@code postgresql.sql}, {@code
 * mariadb.sql}), so that what {@link JdbcLeaseRepository#open} runs (with {@link
 * JdbcOptions#createIfMissing()}) and what a migration tool runs are the same text. Each table
 * carries a comment naming it and the schema version; {@link #check} reads it, so that a table of
 * the same name made by someone else, or by another version, is refused with a clear message rather
 * than misread.
 */
final class Schema {

  /** The schema version this library writes and reads. */
  static final int VERSION = 1;

  /** The table name in the DDL files, replaced by the configured one. */
  private static final String FILE_TABLE_NAME = "lease_records";

  /** The start of the record table's comment, before the schema version. */
  private static final String RECORDS_MARK = "lease-jdbc lease records, schema ";

  /**
   * The start of the generation table's comment, before the schema version. It says "fences", the
   * table's word before it was called the generation table, as the tables made by earlier versions
   * do: a table's comment is how {@link #check} tells it, so the text stays.
   */
  private static final String GENERATIONS_MARK = "lease-jdbc fences, schema ";

  private static final Pattern VERSION_NUMBER = Pattern.compile("\\d{1,9}");
  private static final Pattern NAMED_TABLE =
      Pattern.compile("(?:CREATE TABLE IF NOT EXISTS|COMMENT ON TABLE) ([a-z_][a-z0-9_]*)");
  private static final Pattern NAMED_ROUTINE =
      Pattern.compile("CREATE PROCEDURE IF NOT EXISTS ([a-z_][a-z0-9_]*)");

  /** The line that changes the end of a statement, in a DDL file. */
  private static final String DELIMITER_COMMAND = "DELIMITER ";

  private Schema() {}

  /** The generation table of a record table. */
  static String generationTable(String table) {
    return table + "_fence";
  }

  /**
   * The statements that create both tables (and, on MariaDB, the acquisition procedure) if they do
   * not exist, for {@code table}. A statement ends with a line that ends with the delimiter, {@code
   * ;} unless a {@code DELIMITER} line (as the {@code mariadb} client and Flyway read it) changed
   * it, so that a procedure's body keeps its own semicolons.
   */
  static List<String> statements(Dialect dialect, String table) {
    String text = read(dialect.schemaFile()).replace(FILE_TABLE_NAME, table);
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    String delimiter = ";";
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("--")) {
        continue;
      }
      if (line.startsWith(DELIMITER_COMMAND)) {
        delimiter = line.substring(DELIMITER_COMMAND.length()).trim();
        continue;
      }
      current.append(line).append('\n');
      if (line.endsWith(delimiter)) {
        String statement = current.toString().trim();
        statements.add(statement.substring(0, statement.length() - delimiter.length()));
        current.setLength(0);
      }
    }
    return statements;
  }

  /** The procedure a statement of the DDL files creates, or {@code null} for another statement. */
  static @Nullable String routineOf(String statement) {
    Matcher names = NAMED_ROUTINE.matcher(statement);
    return names.find() ? names.group(1) : null;
  }

  /** The acquisition procedure of a record table (MariaDB): 64 characters at most. */
  static String acquisitionRoutine(String table) {
    return table + "_acq";
  }

  /**
   * The table a statement of the DDL files creates or comments on, or {@code null} for another
   * statement.
   */
  static @Nullable String tableOf(String statement) {
    Matcher names = NAMED_TABLE.matcher(statement);
    return names.lookingAt() ? names.group(1) : null;
  }

  /**
   * Creates both tables (and what else the dialect's DDL file makes) if they do not exist, in
   * auto-commit mode.
   */
  static void create(Connection connection, Dialect dialect, String table) throws SQLException {
    dialect.createTables(connection, table, statements(dialect, table));
  }

  /**
   * Checks that both tables exist, are this library's (by their comments) at {@link #VERSION}, and
   * have the columns it reads.
   *
   * @throws LeaseRepositoryFailure if not, saying which table and what is wrong
   */
  static void check(Connection connection, Dialect dialect, Sql sql, String table)
      throws SQLException {
    checkComment(connection, dialect, table, RECORDS_MARK, "lease table");
    checkComment(connection, dialect, generationTable(table), GENERATIONS_MARK, "generation table");
    try (Statement statement = connection.createStatement()) {
      statement.executeQuery(sql.checkColumns()).close();
    } catch (SQLException e) {
      if (dialect.isUndefinedColumn(e)) {
        throw new LeaseRepositoryFailure(
            null,
            "the lease table '"
                + table
                + "' lacks a column of schema "
                + VERSION
                + " ("
                + e.getMessage()
                + "): it was altered after it was created",
            e);
      }
      throw e;
    }
  }

  private static void checkComment(
      Connection connection, Dialect dialect, String table, String mark, String role)
      throws SQLException {
    Dialect.TableComment found = dialect.tableComment(connection, table);
    if (!found.exists()) {
      throw new LeaseRepositoryFailure(
          null,
          "the "
              + role
              + " '"
              + table
              + "' does not exist in this "
              + dialect.name()
              + " database (or is not on the connection's search path); create it by"
              + " opening with JdbcOptions.builder().createIfMissing(true), or run the statements of "
              + dialect.schemaFile()
              + " in lease-jdbc's jar",
          null);
    }
    @Nullable String comment = found.comment();
    @Nullable Integer version = version(comment, mark);
    if (version == null) {
      throw new LeaseRepositoryFailure(
          null,
          "the table '"
              + table
              + "' is not a "
              + role
              + " of lease-jdbc: its comment is "
              + (comment == null || comment.isEmpty() ? "empty" : "'" + comment + "'")
              + " where '"
              + mark
              + VERSION
              + "' was expected; choose another table name in JdbcOptions",
          null);
    }
    if (version != VERSION) {
      throw new LeaseRepositoryFailure(
          null,
          "the "
              + role
              + " '"
              + table
              + "' has schema version "
              + version
              + ", but this version of lease-jdbc reads schema "
              + VERSION
              + " only",
          null);
    }
  }

  private static @Nullable Integer version(@Nullable String comment, String mark) {
    if (comment == null || !comment.startsWith(mark)) {
      return null;
    }
    Matcher number = VERSION_NUMBER.matcher(comment.substring(mark.length()));
    return number.matches() ? Integer.valueOf(number.group()) : null;
  }

  private static String read(String file) {
    try (InputStream in = Schema.class.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("lease-jdbc's jar lacks its schema file " + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read lease-jdbc's schema file " + file, e);
    }
  }
}
