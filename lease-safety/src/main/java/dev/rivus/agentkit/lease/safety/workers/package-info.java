/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The workers: the JVMs that hold leases and write to the protected resource through fenced work
 * ({@link WorkerMain}, and {@link NoisyWorkerMain}, whose stderr blocks), with their clocks,
 * deadlines and logs; and the driver's handles on them: a slot per library worker that respawns it
 * ({@link WorkerSlot}), the noisy worker ({@link NoisyWorker}), and the {@code lease run} worker
 * ({@link LeaseRunSlot}), which runs the built CLI one run after another and carries the faults
 * aimed at its {@code lease} process.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety.workers;

import org.jspecify.annotations.NullMarked;
