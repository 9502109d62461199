/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Micrometer metrics of lease managers: {@link dev.rivus.agentkit.lease.micrometer.LeaseMetrics}.
 * See {@code docs/metrics.md} for the meters and their tags.
 */
@NullMarked
package dev.rivus.agentkit.lease.micrometer;

import org.jspecify.annotations.NullMarked;
