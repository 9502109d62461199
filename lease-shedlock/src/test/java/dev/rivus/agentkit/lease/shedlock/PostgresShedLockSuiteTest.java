/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.testsupport.SharedServer;

/**
 * ShedLock's provider suite on PostgreSQL through lease-jdbc, in a table of its own per test.
 * Skipped (failed on CI) if the shared server does not answer.
 */
class PostgresShedLockSuiteTest extends ShedLockSuite {

  private final String table = SharedServer.freshTableName("shedlock_t_");
  private HikariDataSource pool;

  @Override
  LeaseRepository openRepository() {
    SharedServer.POSTGRES.requireReachable();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(SharedServer.POSTGRES.url());
    config.setMaximumPoolSize(8);
    config.setMinimumIdle(1);
    pool = new HikariDataSource(config);
    return JdbcLeaseRepository.open(
        pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
  }

  @Override
  void afterClose() throws Exception {
    if (pool != null) {
      pool.close();
    }
    SharedServer.POSTGRES.dropLeaseTable(table);
  }
}
