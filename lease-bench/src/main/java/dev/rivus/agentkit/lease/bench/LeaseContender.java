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
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Our library: one {@link LeaseManager} (default TTL and heartbeat) on a {@link
 * JdbcLeaseRepository} on a HikariCP pool; a cycle is {@code acquire(key)} and {@code close()}. On
 * MariaDB, optionally on tables without the acquisition procedure (as an earlier version made
 * them), whose acquisitions send its statements one by one.
 */
final class LeaseContender implements CycleContender {

  private final JdbcServers server;
  private final String table = JdbcServers.freshTable("lease");
  private final HikariDataSource pool;
  private final JdbcLeaseRepository repository;
  private final LeaseManager manager;

  LeaseContender(JdbcServers server) throws SQLException {
    this(server, true);
  }

  /**
   * Sets up the contender; without {@code routine}, the MariaDB table's acquisition procedure is
   * dropped before the repository is opened.
   */
  LeaseContender(JdbcServers server, boolean routine) throws SQLException {
    this.server = server;
    pool = server.pool("lease-bench-lease");
    JdbcOptions options = JdbcOptions.builder().tableName(table).createIfMissing(true).build();
    if (!routine) {
      JdbcLeaseRepository.open(pool, options).close();
      try (Connection connection = pool.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("DROP PROCEDURE IF EXISTS " + table + "_acq");
      }
      options = JdbcOptions.builder().tableName(table).build();
    }
    repository = JdbcLeaseRepository.open(pool, options);
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
