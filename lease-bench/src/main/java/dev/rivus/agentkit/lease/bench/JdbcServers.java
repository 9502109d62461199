/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The database servers the JDBC benchmarks run against, the {@link SharedServer}s at their
 * benchmark URLs, from the environment: {@code LEASE_BENCH_POSTGRES_URL} (default {@code
 * jdbc:postgresql://127.0.0.1:5432/test?user=root}) and {@code LEASE_BENCH_MARIADB_URL} (default
 * {@code jdbc:mariadb://127.0.0.1:3306/test?user=root}). Every benchmark works on tables of fresh
 * names and drops them after, with their {@code _fence} companions. The SQL that differs between
 * the servers is the {@link SharedServer}'s; what is the benchmarks' own is here: their pools and
 * connections named for {@code pg_stat_activity}.
 */
enum JdbcServers {
  POSTGRESQL(SharedServer.POSTGRES),
  MARIADB(SharedServer.MARIADB);

  /** Connections of every pool: one per benchmark thread, the manager's renewer, and spare. */
  static final int POOL_SIZE = 4;

  private final SharedServer shared;

  JdbcServers(SharedServer shared) {
    this.shared = shared;
  }

  /** The server's product name. */
  String displayName() {
    return shared.product();
  }

  /** The JDBC URL, from the environment or the default. */
  String url() {
    return shared.benchmarkUrl();
  }

  /** One plain connection, in auto-commit mode. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url());
  }

  /**
   * One plain connection, in auto-commit mode, that PostgreSQL lists under {@code name} in {@code
   * pg_stat_activity}.
   */
  Connection connect(String name) throws SQLException {
    Properties properties = new Properties();
    if (this == POSTGRESQL) {
      properties.setProperty("ApplicationName", name);
    }
    return DriverManager.getConnection(url(), properties);
  }

  /**
   * A HikariCP pool of {@link #POOL_SIZE} connections, all opened at once, as an application would
   * configure it; {@code name} becomes PostgreSQL's {@code application_name}.
   */
  HikariDataSource pool(String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url());
    config.setPoolName(name);
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(POOL_SIZE);
    if (this == POSTGRESQL) {
      config.addDataSourceProperty("ApplicationName", name);
    }
    return new HikariDataSource(config);
  }

  /** A table name no other run uses: {@code bench_<what>_<hex digits>}. */
  static String freshTable(String what) {
    return SharedServer.freshTableName("bench_" + what + "_");
  }

  /** Drops the lease tables, and the {@code _fence} companion of each, if they exist. */
  void drop(String... tables) throws SQLException {
    try (Connection connection = connect()) {
      for (String table : tables) {
        shared.dropLeaseTable(connection, table);
      }
    }
  }
}
