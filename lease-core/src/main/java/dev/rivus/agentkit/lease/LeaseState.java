package dev.rivus.agentkit.lease;

/** Whether a stored lease record is held or is a tombstone left by a release. */
public enum LeaseState {
  /** A holder owns the key and renews the record. */
  HELD,
  /**
   * The last holder released the key; the record keeps its generation so the next one is higher.
   */
  RELEASED
}
