/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.time.Duration;

/** {@link JdbcFaultTest} on MariaDB. */
class MariaDbJdbcFaultTest extends JdbcFaultTest {

  @Override
  TestServer server() {
    return TestServer.MARIADB;
  }

  /** MariaDB Connector/J's {@code socketTimeout} counts milliseconds. */
  @Override
  String socketTimeoutParameter(Duration timeout) {
    return "socketTimeout=" + timeout.toMillis();
  }
}
