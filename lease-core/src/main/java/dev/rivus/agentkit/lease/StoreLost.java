/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import org.jspecify.annotations.Nullable;

/**
 * The store a repository opened is no longer there: its file or directory was deleted, replaced by
 * another one, emptied or truncated, or a database's lease table was dropped. Every lease held
 * through the repository is lost at once ({@link LeaseLost.Reason#STORE_LOST}): a new store at the
 * same place starts without their records, so another process may already hold the same keys.
 *
 * <p>The repository stays unusable; open a new one (which refuses an emptied or truncated store
 * rather than adopt it).
 */
public final class StoreLost extends LeaseRepositoryFailure {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the failure.
   *
   * @param message what happened to which store, and what to do
   * @param cause the underlying failure, or {@code null}
   */
  public StoreLost(String message, @Nullable Throwable cause) {
    super(null, message, cause);
  }
}
