/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A Spring Integration {@code LockRegistry} on a {@link dev.rivus.agentkit.lease.LeaseManager}:
 * {@link dev.rivus.agentkit.lease.spring.integration.LeaseLockRegistry} hands out {@link
 * dev.rivus.agentkit.lease.spring.integration.LeaseLock}s, which keep {@link
 * java.util.concurrent.locks.Lock}'s contract, exclude each other across processes through the
 * manager's repository, and carry the lease's fencing token. See {@code docs/spring-integration.md}.
 * All types in this package are null-hostile: no parameter or return value is null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.rivus.agentkit.lease.spring.integration;

import org.jspecify.annotations.NullMarked;
