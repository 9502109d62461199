/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

/** Two hosts on one table of MariaDB. */
class MariaDbTwoHostsTest extends JdbcTwoHostsTest {

  @Override
  TestServer server() {
    return TestServer.MARIADB;
  }
}
