/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileModes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The repository options shared by every command: {@code --db PATH} (SQLite, the default), {@code
 * --dir DIR} (one JSON file per key) or {@code --jdbc URL} (a table on a shared database, with
 * {@code --jdbc-table} and {@code --no-create-table}). Without any, the database of {@code
 * $LEASE_JDBC_URL} if set, else the SQLite database named by {@link DatabasePath}; {@code
 * $LEASE_DB} and {@code $LEASE_JDBC_URL} both set is a usage error, since processes that should
 * exclude each other could then pick different stores.
 */
final class RepositoryOptions {

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable Choice choice;

  /** The mutually exclusive repository options. */
  static final class Choice {
    @Option(
        names = "--db",
        paramLabel = "PATH",
        description =
            "SQLite lease database, created with its directory by run, release and prune (status"
                + " and list only read an existing one; default: $LEASE_DB, else"
                + " $${XDG_STATE_HOME:-~/.local/state}/lease/leases.db).")
    @Nullable Path db;

    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description =
            "Directory of JSON lease files (one per key), created if missing by run, release and"
                + " prune.")
    @Nullable Path dir;

    @Option(
        names = "--jdbc",
        paramLabel = "URL",
        description =
            "A table of a shared PostgreSQL or MariaDB database, for many machines:"
                + " jdbc:postgresql://HOST/DB or jdbc:mariadb://HOST/DB (default without --db or"
                + " --dir: $LEASE_JDBC_URL). User and password in the URL, or in $LEASE_JDBC_USER"
                + " and $LEASE_JDBC_PASSWORD; never printed.")
    @Nullable String jdbc;
  }

  @Option(
      names = "--jdbc-table",
      paramLabel = "NAME",
      description =
          "The table of the database: lower-case ASCII letters, digits and _, not a reserved"
              + " word of SQL (default: lease_records). Created by run, release and prune if missing.")
  @Nullable String jdbcTable;

  @Option(
      names = "--no-create-table",
      description =
          "Never create the table of the database (migrations own the schema): a missing table is"
              + " an error.")
  boolean noCreateTable;

  /**
   * Opens the chosen repository.
   *
   * @param context the environment and the repository factories
   * @param use whether the store may be created, and the busy wait
   * @return the open repository; the caller closes it
   * @throws CliFailure if no default database can be chosen
   * @throws LeaseRepositoryFailure if the repository cannot be created or opened, or does not exist
   *     and may not be created
   */
  LeaseRepository open(CliContext context, StoreUse use) {
    Choice chosen = choice;
    if (chosen != null) {
      requireNotEmpty("--db", chosen.db);
      requireNotEmpty("--dir", chosen.dir);
      if (chosen.jdbc != null && chosen.jdbc.isBlank()) {
        throw new CliFailure(
            ExitCodes.USAGE, "--jdbc must not be empty (an unset variable in the command line?)");
      }
    }
    JdbcTarget jdbc = jdbcTarget(context.environment(), chosen);
    if (jdbc != null) {
      return context.repositories().openJdbc(jdbc, use);
    }
    if (jdbcTable != null || noCreateTable) {
      throw new CliFailure(
          ExitCodes.USAGE,
          (jdbcTable != null ? "--jdbc-table" : "--no-create-table")
              + " applies to a database only: give --jdbc URL or set LEASE_JDBC_URL");
    }
    if (chosen != null && chosen.dir != null) {
      return context.repositories().openDirectory(chosen.dir.toAbsolutePath(), use);
    }
    Path file =
        chosen != null && chosen.db != null
            ? chosen.db.toAbsolutePath()
            : DatabasePath.resolve(context.environment());
    if (use.create()) {
      createParent(file);
    }
    return context.repositories().openDatabase(file, use);
  }

  /**
   * The database of {@code --jdbc}, else of {@code $LEASE_JDBC_URL} when no other store is named;
   * {@code null} for SQLite or files.
   */
  private @Nullable JdbcTarget jdbcTarget(
      Map<String, String> environment, @Nullable Choice chosen) {
    if (chosen != null && chosen.jdbc != null) {
      return JdbcTarget.of(chosen.jdbc, "--jdbc", jdbcTable, !noCreateTable, environment);
    }
    String url = environment.get(JdbcTarget.LEASE_JDBC_URL);
    if (chosen != null || url == null || url.isBlank()) {
      return null;
    }
    String db = environment.get(DatabasePath.LEASE_DB);
    if (db != null && !db.isBlank()) {
      throw new CliFailure(
          ExitCodes.USAGE,
          "both LEASE_DB and LEASE_JDBC_URL are set, so the store is not clear: unset one, or name"
              + " the store with --db or --jdbc");
    }
    return JdbcTarget.of(url, "LEASE_JDBC_URL", jdbcTable, !noCreateTable, environment);
  }

  /** An empty path would name the working directory: surely a variable that was not set. */
  private static void requireNotEmpty(String option, @Nullable Path path) {
    if (path != null && path.toString().isEmpty()) {
      throw new CliFailure(
          ExitCodes.USAGE, option + " must not be empty (an unset variable in the command line?)");
    }
  }

  private static void createParent(Path file) {
    Path parent = file.getParent();
    if (parent == null || Files.isDirectory(parent)) {
      return;
    }
    try {
      // Private: the default one is the user's own state directory.
      Files.createDirectories(parent, FileModes.privateDirectory());
    } catch (IOException | SecurityException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot create the directory of the lease database " + file + ": " + reason(e), e);
    }
  }

  private static String reason(Exception e) {
    if (e instanceof FileAlreadyExistsException) {
      return ((FileAlreadyExistsException) e).getFile() + " exists and is not a directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied on " + ((AccessDeniedException) e).getFile();
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory: " + ((NoSuchFileException) e).getFile();
    }
    if (e instanceof FileSystemException && e.getMessage() != null) {
      return e.getMessage(); // "file: reason"
    }
    return e.toString();
  }
}
