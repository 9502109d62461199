/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

/** {@link JdbcRestartTest} on a private PostgreSQL server. */
class PostgresJdbcRestartTest extends JdbcRestartTest {

  @Override
  TestServer kind() {
    return TestServer.POSTGRES;
  }
}
