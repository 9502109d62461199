/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * JMH benchmarks of the lease manager and its repositories; see {@code BENCHMARKS.md} for the
 * commands and the figures.
 */
@NullMarked
package dev.rivus.agentkit.lease.bench;

import org.jspecify.annotations.NullMarked;
