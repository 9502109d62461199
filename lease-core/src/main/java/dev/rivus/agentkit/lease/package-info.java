/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases: one owner per task, named by a string key, with a fencing token (the generation) that
 * never goes backwards.
 *
 * <p>Start with {@link dev.rivus.agentkit.lease.LeaseManager#builder(LeaseRepository)} (the TTL and
 * heartbeat, a name, a {@link dev.rivus.agentkit.lease.LeaseListener}, a {@link
 * dev.rivus.agentkit.lease.LivenessJudge}, your own threads or clocks), acquire a {@link dev.rivus.agentkit.lease.Lease} with try-with-resources,
 * and guard writes with {@link dev.rivus.agentkit.lease.Lease#runFenced(FencedWork)}: it runs under
 * the repository's key lock and hands the work a {@link dev.rivus.agentkit.lease.FencingToken} for
 * the resource, which a {@link dev.rivus.agentkit.lease.TokenGuard} can check. Every expected failure is a {@link
 * dev.rivus.agentkit.lease.LeaseException}. All types in this package are null-hostile: no
 * parameter or return value is null unless marked {@code @Nullable}. A null argument where a value
 * is required is reported as the JDK reports it: a {@code NullPointerException} whose message is
 * the parameter's name.
 */
@NullMarked
package dev.rivus.agentkit.lease;

import org.jspecify.annotations.NullMarked;
