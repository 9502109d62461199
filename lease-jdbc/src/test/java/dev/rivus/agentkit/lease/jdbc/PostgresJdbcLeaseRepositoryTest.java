/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

/** {@link JdbcLeaseRepositoryTest} on PostgreSQL. */
class PostgresJdbcLeaseRepositoryTest extends JdbcLeaseRepositoryTest {

  @Override
  TestServer server() {
    return TestServer.POSTGRES;
  }

  @Override
  String silenceSettings() {
    return "SELECT current_setting('idle_session_timeout') || '/' || current_setting('tcp_keepalives_idle') || '/' || current_setting('tcp_keepalives_interval') || '/' || current_setting('tcp_keepalives_count')";
  }

  @Override
  String applicationSilenceSettings() {
    return "SET idle_session_timeout = 987654; SET tcp_keepalives_idle = 321";
  }
}
