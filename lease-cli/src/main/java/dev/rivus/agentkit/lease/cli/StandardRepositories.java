/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repositories of the product: SQLite for {@code --db}, JSON files for {@code --dir}, a shared
 * database for {@code --jdbc} (through {@link JdbcRepositories}, so that its classes are loaded
 * only then).
 */
final class StandardRepositories implements Repositories {

  @Override
  public LeaseRepository openDatabase(Path file, StoreUse use) {
    return SqliteLeaseRepository.open(
        file,
        SqliteOptions.builder().busyWait(use.busyWait()).createIfMissing(use.create()).build());
  }

  @Override
  public LeaseRepository openDirectory(Path directory, StoreUse use) {
    if (!use.create() && !Files.isDirectory(directory)) {
      throw new LeaseRepositoryFailure(
          null,
          Files.exists(directory)
              ? directory + " is not a directory, so not a lease directory"
              : "no lease directory at "
                  + directory
                  + "; this command only reads a store and never creates one (check the path)",
          null);
    }
    return FileLeaseRepository.open(directory);
  }

  @Override
  public LeaseRepository openJdbc(JdbcTarget target, StoreUse use) {
    return JdbcRepositories.open(target, use);
  }
}
