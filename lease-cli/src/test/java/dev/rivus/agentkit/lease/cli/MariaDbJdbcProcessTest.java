/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.testsupport.SharedServer;

/** {@link JdbcProcessTest} on MariaDB. */
class MariaDbJdbcProcessTest extends JdbcProcessTest {

  @Override
  SharedServer database() {
    return SharedServer.MARIADB;
  }
}
