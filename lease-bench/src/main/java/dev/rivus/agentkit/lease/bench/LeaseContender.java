/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;

/**
 * Our library: one {@link LeaseManager} (default TTL and heartbeat) on a {@link
 * JdbcLeaseRepository} on a HikariCP pool; a cycle is {@code acquire(key)} and {@code close()}.
 */
final class LeaseContender implements CycleContender {

  private final JdbcServers server;
  private final String table = JdbcServers.freshTable("lease");
  private final HikariDataSource pool;
  private final JdbcLeaseRepository repository;
  private final LeaseManager manager;

  LeaseContender(JdbcServers server) {
    this.server = server;
    pool = server.pool("lease-bench-lease");
    repository =
        JdbcLeaseRepository.open(
            pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
    manager = LeaseManager.builder(repository).build();
  }

  @Override
  public Cycle forThread(int index) {
    String key = "bench/" + index;
    return () -> {
      try (Lease lease = manager.acquire(key)) {
        return lease.generation();
      }
    };
  }

  @Override
  public void close() throws Exception {
    manager.close();
    repository.close();
    pool.close();
    server.drop(table);
  }
}
