/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The repository options shared by every command: {@code --db PATH} (SQLite, the default) or {@code
 * --dir DIR} (one JSON file per key). Without either, the database named by {@link DatabasePath}.
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
  }

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
      Files.createDirectories(parent);
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
