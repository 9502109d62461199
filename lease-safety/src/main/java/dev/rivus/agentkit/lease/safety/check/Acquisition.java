/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import org.jspecify.annotations.Nullable;

/**
 * One successful acquisition, from a worker's log.
 *
 * @param worker the worker's id
 * @param key the key
 * @param token the generation granted
 * @param startNanos when the worker called {@code acquire} ({@code System.nanoTime()})
 * @param okNanos when {@code acquire} returned
 * @param how how the library says it acquired ({@code LeaseEvent.Acquisition}), if it said
 */
record Acquisition(
    String worker, String key, long token, long startNanos, long okNanos, @Nullable String how) {}
