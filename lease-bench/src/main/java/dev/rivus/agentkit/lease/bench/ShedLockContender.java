/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock's JDBC provider as its README configures it for a plain {@code DataSource}: {@code
 * JdbcTemplateLockProvider} with {@code usingDbTime()} (the plain {@code shedlock-provider-jdbc} is
 * not published for ShedLock 7), on a HikariCP pool, on the README's PostgreSQL table. A cycle is
 * {@code lock} (lockAtMostFor 60 s, lockAtLeastFor 0) and {@code unlock}.
 */
final class ShedLockContender implements CycleContender {

  private final JdbcServers server;
  private final String table = JdbcServers.freshTable("shedlock");
  private final HikariDataSource pool;
  private final JdbcTemplateLockProvider provider;

  ShedLockContender(JdbcServers server) throws Exception {
    this.server = server;
    try (Connection connection = server.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE "
              + table
              + " (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,"
              + " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL,"
              + " PRIMARY KEY (name))");
    }
    pool = server.pool("lease-bench-shedlock");
    provider =
        new JdbcTemplateLockProvider(
            JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(pool))
                .withTableName(table)
                .usingDbTime()
                .build());
  }

  @Override
  public Cycle forThread(int index) {
    String name = "bench/" + index;
    return () -> {
      SimpleLock lock =
          provider
              .lock(
                  new LockConfiguration(Instant.now(), name, Duration.ofSeconds(60), Duration.ZERO))
              .orElseThrow(() -> new IllegalStateException(name + " is locked"));
      lock.unlock();
      return 1;
    };
  }

  @Override
  public void close() throws Exception {
    pool.close();
    server.drop(table);
  }
}
