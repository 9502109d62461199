/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The repository options shared by every command: {@code --db PATH} (SQLite, the default), {@code
 * --dir DIR} (one JSON file per key), {@code --jdbc URL} (a table on a shared database, with {@code
 * --jdbc-table} and {@code --no-create-table}), or {@code --store URI} for any store by its scheme,
 * of which the first three are spellings ({@code sqlite:PATH}, {@code dir:PATH}, the JDBC URL).
 * Without any, the database of {@code $LEASE_JDBC_URL} if set, else the SQLite database named by
 * {@link DatabasePath}; {@code $LEASE_DB} and {@code $LEASE_JDBC_URL} both set is a usage error,
 * since processes that should exclude each other could then pick different stores. Every store is
 * opened through the one door of {@link Repositories}, with a {@link StoreRequest} that speaks the
 * command line's words.
 */
final class RepositoryOptions {

  /**
   * The database URL used when no {@code --db}, {@code --dir}, {@code --jdbc} or store is given.
   */
  static final String LEASE_JDBC_URL = "LEASE_JDBC_URL";

  /** The user for the database, when the URL names none. */
  static final String LEASE_JDBC_USER = "LEASE_JDBC_USER";

  /** The scheme of the stores {@code --jdbc-table} and {@code --no-create-table} apply to. */
  private static final String JDBC = "jdbc";

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable Choice choice;

  /** The mutually exclusive repository options. */
  static final class Choice {
    @Option(
        names = "--db",
        paramLabel = "PATH",
        description =
            "SQLite lease database, created by run, release and prune in a directory that must"
                + " exist (status and list only read an existing one; default: $LEASE_DB, else"
                + " $${XDG_STATE_HOME:-~/.local/state}/lease/leases.db, created with its"
                + " directory).")
    @Nullable Path db;

    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description =
            "Directory of JSON lease files (one per key), created if missing by run, release and"
                + " prune in a parent directory that must exist.")
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

    @Option(
        names = "--store",
        paramLabel = "URI",
        description =
            "Any lease store by its URI: the same as --db PATH is sqlite:PATH, as --dir DIR"
                + " is dir:DIR, as --jdbc URL is the URL; another scheme opens the store whose jar"
                + " is installed.")
    @Nullable String store;
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
   * @param context the environment and the repositories
   * @param use whether the store may be created, and the busy wait
   * @return the open repository; the caller closes it
   * @throws CliFailure if no default database can be chosen, options are given that do not go
   *     together, or the directory of a store named by an option does not exist
   * @throws LeaseConfigInvalid if the store's URI or a setting is refused
   * @throws LeaseRepositoryFailure if the repository cannot be created or opened, or does not exist
   *     and may not be created
   */
  LeaseRepository open(CliContext context, StoreUse use) {
    Map<String, String> environment = context.environment();
    StoreRequest.Builder request =
        named(environment, choice)
            .create(use.create())
            .busyWait(use.busyWait())
            .holding(use.holding())
            .spelling(StoreRequest.CALLER, "this command")
            .spelling(StoreRequest.CREATORS, "run, release and prune");
    if (choice != null) {
      // Only the default store gets its directories created: a typo in a named path would
      // otherwise make a second, empty store, and two jobs on one key would exclude nothing.
      StoreDirectory.requireParentOf(request.build());
    }
    if (request.build().scheme().equals(JDBC)) {
      databaseSettings(request, environment);
    } else if (jdbcTable != null || noCreateTable) {
      throw new CliFailure(
          ExitCodes.USAGE,
          (jdbcTable != null ? "--jdbc-table" : "--no-create-table")
              + " applies to a database only: give --jdbc URL or set LEASE_JDBC_URL");
    }
    return context.repositories().open(request.build());
  }

  /** The store the options or the environment name, with the words of the one that named it. */
  private static StoreRequest.Builder named(
      Map<String, String> environment, @Nullable Choice chosen) {
    if (chosen != null) {
      requireNotEmpty("--db", chosen.db);
      requireNotEmpty("--dir", chosen.dir);
      requireNotBlank("--jdbc", chosen.jdbc);
      requireNotBlank("--store", chosen.store);
      if (chosen.store != null) {
        return StoreRequest.builder(chosen.store).spelling(StoreRequest.LOCATION, "--store");
      }
      if (chosen.jdbc != null) {
        // The database's store whatever the URL starts with: it says what is wrong with another.
        return StoreRequest.builder(JDBC, chosen.jdbc).spelling(StoreRequest.LOCATION, "--jdbc");
      }
      if (chosen.dir != null) {
        return StoreRequest.builder("dir:" + chosen.dir.toAbsolutePath())
            .spelling(StoreRequest.LOCATION, "--dir");
      }
      if (chosen.db != null) {
        return StoreRequest.builder("sqlite:" + chosen.db.toAbsolutePath())
            .spelling(StoreRequest.LOCATION, "--db");
      }
    }
    String url = environment.get(LEASE_JDBC_URL);
    if (url != null && !url.isBlank()) {
      String db = environment.get(DatabasePath.LEASE_DB);
      if (db != null && !db.isBlank()) {
        throw new CliFailure(
            ExitCodes.USAGE,
            "both LEASE_DB and LEASE_JDBC_URL are set, so the store is not clear: unset one, or"
                + " name the store with --db or --jdbc");
      }
      return StoreRequest.builder(JDBC, url).spelling(StoreRequest.LOCATION, LEASE_JDBC_URL);
    }
    return StoreRequest.builder("sqlite:" + DatabasePath.resolve(environment));
  }

  /** The table options, and the credentials the environment adds to a URL without them. */
  private void databaseSettings(StoreRequest.Builder request, Map<String, String> environment) {
    if (jdbcTable != null) {
      request.setting("table", jdbcTable);
    }
    if (noCreateTable) {
      request.setting("create-table", "false");
    }
    String user = environment.get(LEASE_JDBC_USER);
    if (user != null && !user.isEmpty()) {
      request.setting("user", user);
    }
    String password = environment.get(Redaction.LEASE_JDBC_PASSWORD);
    if (password != null && !password.isEmpty()) {
      request.setting("password", password);
    }
    request
        .spelling("table", "--jdbc-table")
        .spelling("create-table", "--no-create-table")
        .spelling("user", LEASE_JDBC_USER)
        .spelling("password", Redaction.LEASE_JDBC_PASSWORD);
  }

  /** An empty path would name the working directory: surely a variable that was not set. */
  private static void requireNotEmpty(String option, @Nullable Path path) {
    if (path != null && path.toString().isEmpty()) {
      throw emptyOption(option);
    }
  }

  private static void requireNotBlank(String option, @Nullable String value) {
    if (value != null && value.isBlank()) {
      throw emptyOption(option);
    }
  }

  private static CliFailure emptyOption(String option) {
    return new CliFailure(
        ExitCodes.USAGE, option + " must not be empty (an unset variable in the command line?)");
  }
}
