/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The checker: pure code over one phase's logs ({@link Checker}), which judges properties P1–P8,
 * gives figures, and tells whether the phase did enough to count ({@link Thresholds}); its verdict
 * ({@link Verdict}), and the totals across a run's phases ({@link Totals}). One class per property
 * or figure, each reading the logs as {@code Logs} indexed them.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety.check;

import org.jspecify.annotations.NullMarked;
