/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.platform.SystemProcesses;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * What a start of {@code lease} does on a thread of its own while picocli reads the command line on
 * the main thread, which takes about 60 ms: reading the system's process facts (this process's host
 * name, boot id, pid namespace and start time: about 20 ms) and, for a command that will open a
 * SQLite database, loading SQLite (about 25 ms). A machine has more than one core, so the two
 * overlap instead of adding up.
 *
 * <p>{@link #processes()} are the system's process facts; it waits for them to be made. A failure
 * of the SQLite load is left for the command's own open to report.
 */
final class StartupWork {

  private static final Set<String> SQLITE_COMMANDS =
      Set.of("run", "status", "list", "release", "prune");

  private final FutureTask<SystemProcesses> system = new FutureTask<>(SystemProcesses::detect);

  private StartupWork() {}

  /** Starts the work for the command line {@code args} and returns at once. */
  static StartupWork start(String[] args, Map<String, String> environment) {
    StartupWork work = new StartupWork();
    boolean sqlite = opensSqlite(args, environment);
    Thread thread =
        new Thread(
            () -> {
              work.system.run();
              if (sqlite) {
                try {
                  SqliteLeaseRepository.preload();
                } catch (RuntimeException | LinkageError e) {
                  // the command's own open reports it
                }
              }
            },
            "lease-startup");
    thread.setDaemon(true);
    thread.start();
    return work;
  }

  /** The system's process facts; waits for them to be made. */
  SystemProcesses processes() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return system.get();
        } catch (InterruptedException e) {
          // The facts are made in tens of milliseconds; the interrupt is kept for the caller.
          interrupted = true;
        }
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(cause);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * A command that will open the SQLite database: not {@code --dir}, not {@code --jdbc} nor {@code
   * $LEASE_JDBC_URL} without {@code --db}, not {@code --store} of another scheme than {@code
   * sqlite:}, not help, not completion.
   */
  static boolean opensSqlite(String[] args, Map<String, String> environment) {
    if (args.length == 0 || !SQLITE_COMMANDS.contains(args[0])) {
      return false;
    }
    boolean db = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--")) {
        break;
      }
      if (named(arg, "--dir") || named(arg, "--jdbc")) {
        return false;
      }
      if (named(arg, "--store")) {
        String uri = arg.equals("--store") ? (i + 1 < args.length ? args[i + 1] : "") : arg;
        if (!uri.replaceFirst("^--store=", "").regionMatches(true, 0, "sqlite:", 0, 7)) {
          return false;
        }
        db = true;
      }
      db |= named(arg, "--db");
    }
    String url = environment.get(RepositoryOptions.LEASE_JDBC_URL);
    return db || url == null || url.isBlank();
  }

  private static boolean named(String arg, String option) {
    return arg.equals(option) || arg.startsWith(option + "=");
  }
}
