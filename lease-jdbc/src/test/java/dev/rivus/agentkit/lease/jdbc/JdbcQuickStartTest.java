/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The library guide's (docs/library.md) JDBC quick start, as written there but for the URL, the
 * table names and a check.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JdbcQuickStartTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void theReadmesQuickStartRuns(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      db.createSideTable();
      String billingRuns = db.sideTable();
      int written;

      HikariConfig pool = new HikariConfig();
      pool.setJdbcUrl(server.url());
      pool.setMaximumPoolSize(10);

      try (HikariDataSource dataSource = new HikariDataSource(pool);
          JdbcLeaseRepository repository =
              JdbcLeaseRepository.open(dataSource, db.options().createIfMissing(true).build());
          LeaseManager leases =
              LeaseManager.builder(repository).ttl(Duration.ofSeconds(30)).build();
          Lease lease = leases.acquire("billing:nightly-run")) {

        written =
            repository.inFencedTransaction(
                lease,
                connection -> {
                  try (PreparedStatement insert =
                      connection.prepareStatement(
                          "INSERT INTO " + billingRuns + " (n) VALUES (?)")) {
                    insert.setLong(1, lease.generation() % 1_000_000);
                    return insert.executeUpdate();
                  }
                });
      }

      assertThat(written).isEqualTo(1);
      assertThat(db.sideRows()).isEqualTo(1);
    }
  }
}
