/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

/** Whether a lease record is held, is a tombstone left by a release, or was pruned. */
public enum LeaseState {
  /** A holder owns the key and renews the record. */
  HELD,
  /**
   * The last holder released the key; the record keeps its generation so the next one is higher.
   */
  RELEASED,
  /**
   * The key's tombstone was pruned: there is no record, only the floors (generation and revision)
   * that the key's next record must exceed. Repositories never store this state; {@link
   * LeaseRepository#load} returns it in place of a pruned record (see {@link LeaseSnapshot#floor}).
   */
  PRUNED
}
