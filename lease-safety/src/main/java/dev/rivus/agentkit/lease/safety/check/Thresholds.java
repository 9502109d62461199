/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The least activity a phase must show to count: below any of them it is INSUFFICIENT, and fails.
 *
 * <p>Immutable (the families are copied); thread-safe.
 *
 * @param acquisitions successful acquisitions
 * @param writes writes the resource accepted
 * @param faults faults injected (kill, stop, wall and monotonic clock jumps)
 * @param faultKinds families of fault the phase must have injected, each at least once: one kind of
 *     each set (for example any of the storage faults)
 * @param leaseRunAcquisitions acquisitions the phase's {@code lease run} workers must have made
 */
public record Thresholds(
    int acquisitions,
    int writes,
    int faults,
    List<Set<String>> faultKinds,
    int leaseRunAcquisitions) {

  /**
   * Copies the families, sorted, so that a shortfall names them in a stable order.
   *
   * @param acquisitions successful acquisitions
   * @param writes writes the resource accepted
   * @param faults faults injected
   * @param faultKinds families of fault the phase must have injected
   * @param leaseRunAcquisitions acquisitions its {@code lease run} workers must have made
   */
  public Thresholds {
    List<Set<String>> copy = new ArrayList<>();
    for (Set<String> family : faultKinds) {
      copy.add(Collections.unmodifiableSet(new TreeSet<>(family)));
    }
    faultKinds = List.copyOf(copy);
  }

  /**
   * Thresholds on counts alone.
   *
   * @param acquisitions successful acquisitions
   * @param writes writes the resource accepted
   * @param faults faults injected
   */
  public Thresholds(int acquisitions, int writes, int faults) {
    this(acquisitions, writes, faults, List.of(), 0);
  }

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

  /**
   * Also requires a fault of one of {@code kinds}.
   *
   * @param kinds the family, by the kinds' names in the driver's log
   * @return the thresholds with the family added
   */
  public Thresholds requiring(Collection<String> kinds) {
    List<Set<String>> families = new ArrayList<>(faultKinds);
    families.add(Set.copyOf(kinds));
    return new Thresholds(acquisitions, writes, faults, families, leaseRunAcquisitions);
  }

  /**
   * Also requires acquisitions by the phase's {@code lease run} workers.
   *
   * @param count how many
   * @return the thresholds with that requirement
   */
  public Thresholds requiringLeaseRuns(int count) {
    return new Thresholds(acquisitions, writes, faults, faultKinds, count);
  }
}
