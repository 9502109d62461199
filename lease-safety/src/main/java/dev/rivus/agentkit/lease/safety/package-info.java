/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The safety harness: {@link dev.rivus.agentkit.lease.safety.SafetyMain} (the driver) starts a
 * protected resource ({@link dev.rivus.agentkit.lease.safety.ResourceMain}) and worker JVMs ({@link
 * dev.rivus.agentkit.lease.safety.WorkerMain}), injects faults from a seed, and judges the logs with
 * the {@link dev.rivus.agentkit.lease.safety.Checker}. See {@code docs/safety.md}.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety;

import org.jspecify.annotations.NullMarked;
