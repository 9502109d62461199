/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.store;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.spi.LeaseStores;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The repositories a phase can attack, and how a worker opens one in a phase's directory.
 *
 * <p>Thread-safe: no state.
 */
public enum StoreKind {
  /** JSON files, one per key ({@code lease-file}). */
  FILE,
  /** One SQLite database ({@code lease-sqlite}). */
  SQLITE,
  /** The negative control: JSON files behind {@link BrokenRepository}. */
  BROKEN,
  /** PostgreSQL ({@code lease-jdbc}), on the phase's fresh table ({@link JdbcStore}). */
  POSTGRES,
  /** MariaDB ({@code lease-jdbc}), on the phase's fresh table ({@link JdbcStore}). */
  MARIADB,
  /**
   * PostgreSQL on a private server the harness starts, and restarts as a fault (the testkit's
   * {@code PrivateServer}); label {@code postgres-restart}.
   */
  POSTGRES_RESTART,
  /**
   * MariaDB on a private server the harness starts, and restarts as a fault; label {@code
   * mariadb-restart}.
   */
  MARIADB_RESTART;

  /**
   * Opens the repository in {@code phaseDirectory}; every worker of the phase opens the same store.
   * Files and SQLite are opened by their URI, as the {@code lease} command opens them; a database
   * through {@link JdbcStore}, whose pool a phase's faults need to shape.
   *
   * @param phaseDirectory the phase's directory
   * @return the repository
   */
  public LeaseRepository open(Path phaseDirectory) {
    switch (this) {
      case FILE:
        return LeaseStores.installed().open("dir:" + storePath(phaseDirectory));
      case SQLITE:
        return LeaseStores.installed().open("sqlite:" + storePath(phaseDirectory));
      case POSTGRES:
      case MARIADB:
      case POSTGRES_RESTART:
      case MARIADB_RESTART:
        // The server itself; a worker opens it through its own proxy (JdbcStore.open).
        return JdbcStore.open(phaseDirectory, null);
      case BROKEN:
      default:
        return new BrokenRepository(FileLeaseRepository.open(phaseDirectory.resolve("leases")));
    }
  }

  /**
   * Returns where the phase's store is: for {@code file} and {@code sqlite}, inside the phase's
   * {@code store} directory, which the driver may mount as a small tmpfs for storage faults ({@code
   * StorageFaults}); for the negative control, {@code leases} beside the logs.
   *
   * @param phaseDirectory the phase's directory
   * @return the directory of JSON files or the database file
   */
  public Path storePath(Path phaseDirectory) {
    switch (this) {
      case FILE:
        return phaseDirectory.resolve("store").resolve("leases");
      case SQLITE:
        return phaseDirectory.resolve("store").resolve("leases.db");
      case BROKEN:
      default:
        return phaseDirectory.resolve("leases");
    }
  }

  /**
   * Tells whether the phase runs on a private database server that the harness starts and restarts,
   * never on a shared one.
   *
   * @return whether the store is {@code postgres-restart} or {@code mariadb-restart}
   */
  public boolean onPrivateServer() {
    return this == POSTGRES_RESTART || this == MARIADB_RESTART;
  }

  /**
   * Returns the name used on the command line and in reports.
   *
   * @return the lower-case name
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * Parses a label.
   *
   * @param label {@code file}, {@code sqlite}, {@code broken}, {@code postgres}, {@code mariadb},
   *     {@code postgres-restart} or {@code mariadb-restart}
   * @return the kind
   * @throws IllegalArgumentException if the label names no kind
   */
  public static StoreKind of(String label) {
    return valueOf(label.toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
