/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A Spring Integration {@code LockRegistry} on a {@link dev.rivus.agentkit.lease.LeaseManager}:
 * {@link dev.rivus.agentkit.lease.spring.integration.LeaseLockRegistry}, whose locks ({@link
 * dev.rivus.agentkit.lease.spring.integration.LeaseLock}) keep {@link
 * java.util.concurrent.locks.Lock}'s contract and carry the lease's fencing token. See {@code
 * docs/spring-integration.md} for moving from Spring's {@code JdbcLockRegistry}.
 */
@NullMarked
package dev.rivus.agentkit.lease.spring.integration;

import org.jspecify.annotations.NullMarked;
