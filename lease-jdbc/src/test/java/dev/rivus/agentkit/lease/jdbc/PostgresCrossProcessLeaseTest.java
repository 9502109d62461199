/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

/** The cross-process contract, and savers in several JVMs, on PostgreSQL. */
class PostgresCrossProcessLeaseTest extends JdbcCrossProcessLeaseTest {

  @Override
  TestServer server() {
    return TestServer.POSTGRES;
  }
}
