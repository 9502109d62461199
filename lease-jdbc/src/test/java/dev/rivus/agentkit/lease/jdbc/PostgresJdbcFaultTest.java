/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.time.Duration;

/** {@link JdbcFaultTest} on PostgreSQL. */
class PostgresJdbcFaultTest extends JdbcFaultTest {

  @Override
  TestServer server() {
    return TestServer.POSTGRES;
  }

  /** pgJDBC's {@code socketTimeout} counts whole seconds. */
  @Override
  String socketTimeoutParameter(Duration timeout) {
    return "socketTimeout=" + Math.max(1, (timeout.toMillis() + 999) / 1000);
  }

  /** For the rest of the transaction only. */
  @Override
  String idleInTransactionTimeout(Duration timeout) {
    return "SET LOCAL idle_in_transaction_session_timeout = " + timeout.toMillis();
  }
}
