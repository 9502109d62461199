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

  /** For the session (whole seconds): a pool's session keeps it until it is reset or ends. */
  @Override
  String idleInTransactionTimeout(Duration timeout) {
    return "SET SESSION idle_transaction_timeout = "
        + Math.max(1, (timeout.toMillis() + 999) / 1000);
  }
}
