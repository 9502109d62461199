/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * What a lease manager takes from its surroundings, one part at a time: a monotonic {@link
 * dev.rivus.agentkit.lease.platform.Ticker}, the threads of its {@link
 * dev.rivus.agentkit.lease.platform.LeaseScheduler} (made by a {@link
 * dev.rivus.agentkit.lease.platform.SchedulerFactory}), and the facts of this machine's processes
 * ({@link dev.rivus.agentkit.lease.platform.SystemProcesses}). The wall clock is a {@link
 * java.time.Clock}. Each part has a system implementation and can be replaced alone through {@link
 * dev.rivus.agentkit.lease.LeaseManager#builder}; the testkit's {@code FakePlatform} replaces them
 * all for tests.
 */
@NullMarked
package dev.rivus.agentkit.lease.platform;

import org.jspecify.annotations.NullMarked;
