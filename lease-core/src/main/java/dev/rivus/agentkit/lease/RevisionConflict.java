/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.OptionalLong;

/**
 * A {@link LeaseRepository#save} found another revision than the one it was told to write over:
 * another writer moved the record first. Nothing was written.
 */
public final class RevisionConflict extends LeaseException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final long expectedRevision;
  private final long actualRevision;

  /**
   * Creates the failure.
   *
   * @param key the key of the record
   * @param expectedRevision the revision the writer expected ({@code 0} for "no record")
   * @param actualRevision the revision found, {@code 0} for "no record", or a negative number when
   *     the repository cannot tell
   */
  public RevisionConflict(String key, long expectedRevision, long actualRevision) {
    super(
        "revision conflict on lease '"
            + key
            + "': expected revision "
            + expectedRevision
            + (actualRevision < 0 ? ", found another" : ", found " + actualRevision),
        null);
    this.key = key;
    this.expectedRevision = expectedRevision;
    this.actualRevision = actualRevision;
  }

  /**
   * Returns the key of the record.
   *
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * Returns the revision the writer expected.
   *
   * @return the expected revision, {@code 0} for "no record"
   */
  public long expectedRevision() {
    return expectedRevision;
  }

  /**
   * Returns the revision found in the repository, when the repository could tell.
   *
   * @return the revision found ({@code 0} for "no record"), or empty when unknown
   */
  public OptionalLong actualRevision() {
    return actualRevision < 0 ? OptionalLong.empty() : OptionalLong.of(actualRevision);
  }
}
