/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The registry's contract on SQLite: one database file that both managers open. */
class SqliteLeaseLockRegistryTest extends LeaseLockRegistryContract {

  @TempDir Path directory;

  @Override
  LeaseRepository openRepository() {
    return SqliteLeaseRepository.open(directory.resolve("leases.db"));
  }
}
