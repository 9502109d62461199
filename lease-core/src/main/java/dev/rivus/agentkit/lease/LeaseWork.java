/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import org.jspecify.annotations.Nullable;

/**
 * Work raced against the loss of a lease by {@link Lease#runUntilLost(LeaseWork)}.
 *
 * @param <T> the result type, which may be a nullable one (such as {@code @Nullable Void})
 * @param <X> the checked exception the work may throw
 */
@FunctionalInterface
public interface LeaseWork<T extends @Nullable Object, X extends Exception> {

  /**
   * Runs the work.
   *
   * @return the result
   * @throws X if the work fails
   * @throws InterruptedException if the work was interrupted (on loss of the lease, or from
   *     elsewhere)
   */
  T run() throws X, InterruptedException;
}
