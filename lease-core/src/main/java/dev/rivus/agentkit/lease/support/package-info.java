/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Building blocks for repository adapters: per-key locks within one JVM, cross-process key
 * locks on byte ranges of a lock file, keys encoded as bytes, and durations in nanoseconds that
 * saturate instead of overflowing. Adapter authors may use them; applications need not.
 */
@NullMarked
package dev.rivus.agentkit.lease.support;

import org.jspecify.annotations.NullMarked;
