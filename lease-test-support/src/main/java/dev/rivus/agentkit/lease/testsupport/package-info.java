/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The test infrastructure of Leases for Java's own modules, apart from the contract kit ({@code
 * lease-testkit}) that adapters run: published because the kit's cross-process suite runs on it,
 * but not part of the API promise, and it may change in any release.
 *
 * <p>{@link dev.rivus.agentkit.lease.testsupport.ChildJvm}, the harness for real child JVMs (kill
 * -9, SIGSTOP, SIGCONT), and the {@code java} binary and class path they start with; {@link
 * dev.rivus.agentkit.lease.testsupport.TcpProxy}, a network that can be cut; {@link
 * dev.rivus.agentkit.lease.testsupport.PrivateServer}, a database server that can be restarted;
 * {@link dev.rivus.agentkit.lease.testsupport.SharedServer}, the shared PostgreSQL and MariaDB
 * servers that the environment names; and {@link
 * dev.rivus.agentkit.lease.testsupport.TestEnvironment}, the one rule for a missing server or
 * binary: skipped, or failed on CI.
 */
@NullMarked
package dev.rivus.agentkit.lease.testsupport;

import org.jspecify.annotations.NullMarked;
