/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import org.jspecify.annotations.Nullable;

/**
 * The root of every expected failure of the lease library. It is sealed: a caller can handle each
 * case exhaustively ({@link LeaseHeld}, {@link LeaseLost}, {@link LeaseConfigInvalid}, {@link
 * LeaseRepositoryFailure}, {@link RevisionConflict}), and each subtype carries the facts it is
 * about.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public abstract sealed class LeaseException extends RuntimeException
    permits LeaseHeld, LeaseLost, LeaseConfigInvalid, LeaseRepositoryFailure, RevisionConflict {

  private static final long serialVersionUID = 1L;

  LeaseException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
