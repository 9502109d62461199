/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** ShedLock's provider suite on a SQLite store in a temporary directory. */
class SqliteShedLockSuiteTest extends ShedLockSuite {

  @TempDir Path dir;

  @Override
  LeaseRepository openRepository() {
    return SqliteLeaseRepository.open(dir.resolve("leases.db"));
  }
}
