/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;

/**
 * A repository that can remove old tombstones (released records) while keeping every key's
 * generation monotonic: a key that comes back after pruning still gets a generation higher than any
 * it had.
 */
public interface PrunableLeaseRepository extends LeaseRepository {

  /**
   * Removes tombstones whose last write is older than {@code olderThan} by the repository's wall
   * clock. Held records are never removed. Safe while other processes use the repository.
   *
   * @param olderThan the minimum age of a tombstone to remove; zero removes every tombstone
   * @return how many tombstones were removed
   * @throws LeaseRepositoryFailure if the storage cannot be written
   * @throws NullPointerException if {@code olderThan} is null
   * @throws IllegalArgumentException if {@code olderThan} is negative
   */
  int prune(Duration olderThan);
}
