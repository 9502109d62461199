/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What became of one write of a batch ({@link LeaseRepository#saveAll}): saved, or the failure that
 * stopped it. After a {@link RevisionConflict} nothing was written; after a {@link
 * LeaseRepositoryFailure} the write may or may not have landed, as with a {@link
 * LeaseRepository#save} whose answer was lost. Immutable.
 *
 * @param write the write
 * @param failure {@code null} if the write was saved; else the {@link RevisionConflict} or {@link
 *     LeaseRepositoryFailure} that stopped it
 */
public record SaveOutcome(LeaseWrite write, @Nullable LeaseException failure) {

  /**
   * Validates the outcome.
   *
   * @param write see the class description
   * @param failure see the class description
   * @throws IllegalArgumentException if the failure is neither a conflict nor a repository failure
   * @throws NullPointerException if the write is null
   */
  public SaveOutcome {
    Objects.requireNonNull(write, "write");
    if (failure != null
        && !(failure instanceof RevisionConflict)
        && !(failure instanceof LeaseRepositoryFailure)) {
      throw new IllegalArgumentException(
          "a write fails with a RevisionConflict or a LeaseRepositoryFailure, not " + failure);
    }
  }

  /**
   * The outcome of a write that was saved.
   *
   * @param write the write
   * @return the outcome
   */
  public static SaveOutcome saved(LeaseWrite write) {
    return new SaveOutcome(write, null);
  }

  /**
   * The outcome of a write that failed.
   *
   * @param write the write
   * @param failure a {@link RevisionConflict} or {@link LeaseRepositoryFailure}
   * @return the outcome
   */
  public static SaveOutcome failed(LeaseWrite write, LeaseException failure) {
    return new SaveOutcome(write, Objects.requireNonNull(failure, "failure"));
  }

  /**
   * Tells whether the write was saved.
   *
   * @return {@code true} if it was
   */
  public boolean isSaved() {
    return failure == null;
  }
}
