/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.testsupport.SharedServer;

/**
 * The registry's contract on the shared PostgreSQL server ({@link SharedServer#POSTGRES}), on a
 * lease table of its own per test: skipped when the server does not answer, failed on CI.
 */
class PostgresLeaseLockRegistryTest extends LeaseLockRegistryContract {

  private static final SharedServer SERVER = SharedServer.POSTGRES;

  private HikariDataSource pool;
  private String table;

  @Override
  LeaseRepository openRepository() {
    SERVER.requireReachable();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(SERVER.url());
    config.setMaximumPoolSize(16);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(10_000);
    pool = new HikariDataSource(config);
    table = SharedServer.freshTableName("lease_si_");
    return JdbcLeaseRepository.open(
        pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
  }

  @Override
  void afterStoreClosed() throws Exception {
    if (pool != null) {
      pool.close();
      SERVER.dropLeaseTable(table);
    }
  }
}
