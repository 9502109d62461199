/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.testkit.CrossProcessLeaseContract;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/**
 * The shared cross-process contract on one SQLite file: a holder killed with SIGKILL is taken over
 * at once, a holder stopped beyond the TTL is taken over and fenced out, racing processes have one
 * winner.
 */
class SqliteCrossProcessLeaseTest extends CrossProcessLeaseContract {

  private Path dir;

  @Override
  protected Class<? extends RepositoryFactory> repositoryFactory() {
    return SqliteRepositoryFactory.class;
  }

  @Override
  protected String newStorageSpec() throws Exception {
    dir = Files.createTempDirectory("lease-sqlite-cross-process");
    return dir.resolve("leases.db").toString();
  }

  @AfterEach
  void deleteStorage() throws Exception {
    if (dir != null) {
      try (var files = Files.list(dir)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(file);
        }
      }
      Files.deleteIfExists(dir);
    }
  }
}
