/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The in-memory repository, for one process and for tests. */
@NullMarked
package dev.rivus.agentkit.lease.memory;

import org.jspecify.annotations.NullMarked;
