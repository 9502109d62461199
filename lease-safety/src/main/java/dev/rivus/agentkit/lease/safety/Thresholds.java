/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

/**
 * The least activity a phase must show to count: below any of them it is INSUFFICIENT, and fails.
 *
 * @param acquisitions successful acquisitions
 * @param writes writes the resource accepted
 * @param faults faults injected (kill, stop, wall and monotonic clock jumps)
 */
public record Thresholds(int acquisitions, int writes, int faults) {

  /**
   * Scales the thresholds with a phase's length: one acquisition and two accepted writes per
   * second, one fault per ten seconds, and never fewer than 10, 20 and 3.
   *
   * @param seconds the phase's length
   * @return the thresholds
   */
  public static Thresholds forSeconds(int seconds) {
    return new Thresholds(
        Math.max(10, seconds), Math.max(20, 2 * seconds), Math.max(3, seconds / 10));
  }
}
