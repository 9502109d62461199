/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.CrossProcessLeaseContract;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/**
 * The shared cross-process contract with two names for one database: the children open it by its
 * real name, the test's own JVM through a symbolic link. Their fenced writes to the journal must
 * still never interleave out of order, which holds only if both names lead to one key lock.
 */
class SqliteSymlinkCrossProcessLeaseTest extends CrossProcessLeaseContract {

  private Path dir;

  @Override
  protected Class<? extends RepositoryFactory> repositoryFactory() {
    return SqliteRepositoryFactory.class;
  }

  @Override
  protected String newStorageSpec() throws Exception {
    dir = Files.createTempDirectory("lease-sqlite-symlink");
    Path real = Files.createDirectory(dir.resolve("real")).resolve("leases.db");
    return real.toString();
  }

  @Override
  protected LeaseRepository openInParent(String spec) throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link.db"), Path.of(spec));
    SqliteLeaseRepository.open(Path.of(spec)).close(); // a link is opened only to a database
    return SqliteLeaseRepository.open(link);
  }

  @AfterEach
  void deleteStorage() throws Exception {
    if (dir != null) {
      StoreFiles.deleteAll(dir.resolve("real").resolve("leases.db"));
      Files.deleteIfExists(dir.resolve("real"));
      Files.deleteIfExists(dir.resolve("link.db"));
      Files.deleteIfExists(dir);
    }
  }
}
