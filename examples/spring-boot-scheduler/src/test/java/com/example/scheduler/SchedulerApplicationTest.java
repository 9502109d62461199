/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package com.example.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** One instance: both jobs run under their leases, with their tokens, on a schema of its own. */
@SpringBootTest
class SchedulerApplicationTest {

  // Made afresh by each run and left for the next: the context, cached by Spring's test framework,
  // outlives every callback of this class, and its jobs would meet dropped tables.
  private static final String SCHEMA = "example_scheduler_test";

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws SQLException {
    SharedServer.POSTGRES.requireReachable();
    try (Connection connection = SharedServer.POSTGRES.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
      statement.execute("CREATE SCHEMA " + SCHEMA);
    }
    String url = SharedServer.POSTGRES.url();
    registry.add(
        "spring.datasource.url",
        () -> url + (url.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA);
    registry.add("example.ledger.work", () -> "10ms");
  }

  @Autowired JdbcTemplate jdbc;
  @Autowired LeaseManager manager;

  @Test
  void bothJobsRunUnderTheirLeasesWithRisingTokens() {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count("report_runs") >= 1 && count("ledger") >= 3);
    assertThat(jdbc.queryForList("SELECT token FROM ledger ORDER BY id", Long.class))
        .isSorted()
        .doesNotHaveDuplicates();
    assertThat(manager.name()).isEqualTo("scheduler-example");
  }

  private int count(String table) {
    Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Integer.class);
    return rows == null ? 0 : rows;
  }
}
