/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Contract suites for lease repository adapters, and the one set of test tools every module's
 * tests use.
 *
 * <p>An adapter's test module extends {@link
 * dev.rivus.agentkit.lease.testkit.LeaseRepositoryContract} with a factory for a fresh repository
 * and a second instance on the same storage, and {@link
 * dev.rivus.agentkit.lease.testkit.CrossProcessLeaseContract} with a {@link
 * dev.rivus.agentkit.lease.testkit.RepositoryFactory} that a child JVM can instantiate by name.
 *
 * <p>The tools: {@link dev.rivus.agentkit.lease.testkit.FakePlatform} (time that moves when the
 * test says, processes that run until the test kills them) for managers under test; {@link
 * dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository} to change one operation of a
 * repository; and {@link dev.rivus.agentkit.lease.testkit.Samples}. The child JVMs of the
 * cross-process suite, a TCP proxy and private database servers are the project's test support
 * ({@code lease-test-support}, package {@code dev.rivus.agentkit.lease.testsupport}), which is not
 * part of the API promise.
 */
@NullMarked
package dev.rivus.agentkit.lease.testkit;

import org.jspecify.annotations.NullMarked;
