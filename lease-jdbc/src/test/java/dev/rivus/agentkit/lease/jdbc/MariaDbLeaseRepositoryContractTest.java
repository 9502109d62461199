/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

/** The shared repository contract on MariaDB. */
class MariaDbLeaseRepositoryContractTest extends JdbcLeaseRepositoryContractTest {

  @Override
  TestServer server() {
    return TestServer.MARIADB;
  }
}
