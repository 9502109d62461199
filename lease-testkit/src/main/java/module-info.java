/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The lease test kit: the contract suites every repository adapter runs, and the test tools every
 * module's tests use (a fake platform, a forwarding repository, samples).
 *
 * <p>{@code LeaseRepositoryContract} checks a repository in one process; {@code
 * CrossProcessLeaseContract} checks takeover and fencing between real child JVMs, which run {@code
 * LeaseHolderMain} with the adapter's {@code RepositoryFactory}. Adapter modules extend the suites
 * in their own tests.
 */
module dev.rivus.agentkit.lease.testkit {
  requires transitive dev.rivus.agentkit.lease;
  requires transitive org.junit.jupiter.api;
  requires static org.jspecify;
  requires org.assertj.core;
  requires awaitility;
  requires dev.rivus.agentkit.lease.testsupport; // the cross-process suite's child JVMs

  exports dev.rivus.agentkit.lease.testkit;
}
