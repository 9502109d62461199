/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

/** {@link JdbcLeaseRepositoryTest} on MariaDB. */
class MariaDbJdbcLeaseRepositoryTest extends JdbcLeaseRepositoryTest {

  @Override
  TestServer server() {
    return TestServer.MARIADB;
  }
}
