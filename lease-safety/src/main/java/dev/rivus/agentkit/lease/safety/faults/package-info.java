/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The faults the driver injects, one at a time from a seeded plan ({@link FaultInjector}): kills,
 * stops and clock jumps of the workers; the storage faults of the file and SQLite phases ({@link
 * StorageFaults}), with the restart of the workers that an operator does after a lost store; and
 * the database phases' sessions ended, networks cut and servers restarted ({@link DatabaseFaults}).
 * Every fault goes to the driver's log, which the checker reads.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety.faults;

import org.jspecify.annotations.NullMarked;
