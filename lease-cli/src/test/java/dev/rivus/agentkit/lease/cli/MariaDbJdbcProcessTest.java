/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

/** {@link JdbcProcessTest} on MariaDB. */
class MariaDbJdbcProcessTest extends JdbcProcessTest {

  @Override
  TestDatabase database() {
    return TestDatabase.MARIADB;
  }
}
