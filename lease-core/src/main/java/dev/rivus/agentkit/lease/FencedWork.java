/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import org.jspecify.annotations.Nullable;

/**
 * Work run under a lease's key lock by {@link Lease#runFenced(FencedWork)}. It receives the fencing
 * token to pass on to the resource it writes.
 *
 * @param <T> the result type, which may be a nullable one (such as {@code @Nullable Void})
 * @param <X> the checked exception the work may throw
 */
@FunctionalInterface
public interface FencedWork<T extends @Nullable Object, X extends Exception> {

  /**
   * Runs the work.
   *
   * @param token the handle's fencing token, valid while the work runs
   * @return the result
   * @throws X if the work fails
   * @throws InterruptedException if the work was interrupted (on loss of the lease, or from
   *     elsewhere)
   */
  T run(FencingToken token) throws X, InterruptedException;
}
