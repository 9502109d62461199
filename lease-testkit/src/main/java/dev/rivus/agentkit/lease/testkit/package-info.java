/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Contract suites for lease repository adapters, and the harness that runs lease holders in child
 * JVMs.
 *
 * <p>An adapter's test module extends {@link
 * dev.rivus.agentkit.lease.testkit.LeaseRepositoryContract} with a factory for a fresh repository,
 * and {@link dev.rivus.agentkit.lease.testkit.CrossProcessLeaseContract} with a {@link
 * dev.rivus.agentkit.lease.testkit.RepositoryFactory} that a child JVM can instantiate by name.
 */
@NullMarked
package dev.rivus.agentkit.lease.testkit;

import org.jspecify.annotations.NullMarked;
