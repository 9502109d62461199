/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;

/**
 * One call of {@link Lease#runFenced(FencedWork)} (or its uninterruptible form) ended, as told to
 * {@link LeaseListener#fencedWorkEnded(FencedWorkEnded)}: how long it took, the wait for the key
 * lock included, and how it ended. Work that ends because its lease was lost is told after the
 * lease's {@link LeaseEvent.Lost}, with the outcome {@link Outcome#LOST}. An immutable value.
 *
 * @param manager the manager's name
 * @param key the lease's key
 * @param generation the lease's generation
 * @param took from the call to its return or throw
 * @param outcome how it ended
 */
public record FencedWorkEnded(
    String manager, String key, long generation, Duration took, Outcome outcome) {

  /** How a fenced call ended. */
  public enum Outcome {
    /** The work returned while the lease was held. */
    COMPLETED,
    /** The work, or the key lock's storage, threw something other than {@link LeaseLost}. */
    FAILED,
    /**
     * The lease was lost (or released) before or while the work ran: it threw {@link LeaseLost}.
     */
    LOST
  }
}
