/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The protected resource: a line protocol over loopback TCP ({@code ENTER}, {@code READ}, {@code
 * WRITE}, {@code EXIT}, {@code DEAD}), served by {@link ResourceMain} in a JVM that is never
 * faulted, which logs every request it handles in the order it handles them: the ground truth by
 * which the checker judges overlap. {@link ResourceClient} is how the workers and the driver talk
 * to it.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety.resource;

import org.jspecify.annotations.NullMarked;
