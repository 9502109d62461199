/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The project's test infrastructure: child JVMs, a TCP proxy, private and shared database servers.
 * Not part of the API promise: it may change in any release.
 */
module dev.rivus.agentkit.lease.testsupport {
  requires static org.jspecify;
  requires org.junit.jupiter.api; // Assumptions and Assertions: a missing server skips or fails
  requires awaitility; // ChildJvm.suspend
  requires java.sql; // the database servers; the caller's class path brings the JDBC driver

  exports dev.rivus.agentkit.lease.testsupport;
}
