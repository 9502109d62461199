/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The {@code lease} command line tool: {@code lease run}, {@code status}, {@code list}, {@code
 * release} and {@code prune}. {@link dev.rivus.agentkit.lease.cli.LeaseCli} is the entry point; see
 * {@code docs/cli.md} for the user's guide and the exit codes.
 */
@NullMarked
package dev.rivus.agentkit.lease.cli;

import org.jspecify.annotations.NullMarked;
