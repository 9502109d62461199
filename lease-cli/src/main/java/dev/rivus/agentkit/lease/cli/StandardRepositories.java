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
import java.io.IOException;
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
    SqliteOptions options =
        SqliteOptions.builder().busyWait(use.busyWait()).createIfMissing(use.create()).build();
    if (!use.create() && Files.exists(file) && !writable(file)) {
      // A reader needs no write access: a store on a read-only file system, or another user's.
      return SqliteLeaseRepository.openReadOnly(file, options);
    }
    return SqliteLeaseRepository.open(file, options);
  }

  /** Whether the database and its directory, where SQLite keeps its log, can be written. */
  private static boolean writable(Path file) {
    Path real;
    try {
      real = file.toRealPath();
    } catch (IOException e) {
      return true; // the writing opening says what is wrong
    }
    Path directory = real.getParent();
    return Files.isWritable(real) && directory != null && Files.isWritable(directory);
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
    // A reader needs no write access: the directory is neither created nor probed.
    return use.create()
        ? FileLeaseRepository.open(directory)
        : FileLeaseRepository.openReadOnly(directory);
  }

  @Override
  public LeaseRepository openJdbc(JdbcTarget target, StoreUse use) {
    return JdbcRepositories.open(target, use);
  }
}
