/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The lease manager's implementation: not exported, not API. */
@NullMarked
package dev.rivus.agentkit.lease.internal;

import org.jspecify.annotations.NullMarked;
