/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.nio.file.Path;

/** Opens the lease repositories the command line can name. Tests give their own. */
interface Repositories {

  /**
   * Opens the SQLite lease database in {@code file}, creating it if {@code use} allows.
   *
   * @param file the database file; its directory exists if {@code use} creates
   * @param use whether the store may be created, and the busy wait of one call
   * @return the open repository; the caller closes it
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if it cannot be opened, is not a lease
   *     database, or does not exist and may not be created
   */
  LeaseRepository openDatabase(Path file, StoreUse use);

  /**
   * Opens a directory of JSON lease files, creating it if {@code use} allows.
   *
   * @param directory the directory
   * @param use whether the store may be created
   * @return the open repository; the caller closes it
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if it cannot be created or opened, or
   *     does not exist and may not be created
   */
  LeaseRepository openDirectory(Path directory, StoreUse use);

  /**
   * Opens the lease table of a shared database, creating it if {@code use} and {@code target}
   * allow.
   *
   * @param target the database and table
   * @param use whether the table may be created, and how long one call waits for a connection
   * @return the open repository; the caller closes it, which closes its connections
   * @throws CliFailure with the usage code for a table name the repository refuses
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if the database cannot be reached, or
   *     the table cannot be created or opened, or does not exist and may not be created
   */
  LeaseRepository openJdbc(JdbcTarget target, StoreUse use);
}
