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

  @Override
  String silenceSettings() {
    return "SELECT @@session.wait_timeout";
  }

  @Override
  String applicationSilenceSettings() {
    return "SET SESSION wait_timeout = 4321";
  }
}
