/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.driver.Phase;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The order of a phase's faults: rounds of every kind the phase has, shuffled by a seeded random
 * source, the storage faults and (on a private server) the restarts twice a round. The first round
 * opens with one fault of each family the phase must have ({@link Phase#thresholds()}), so that
 * even a short phase has them all; a restart opens every round; a fault that found no victim is
 * {@linkplain #defer deferred} to just after the next one.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class FaultPlan {

  private static final List<FaultKind> LEASE_RUN_FAULTS =
      List.of(FaultKind.RUN_KILL, FaultKind.RUN_STOP, FaultKind.RUN_STDERR);

  private final Random random;
  private final Set<FaultKind> kinds;
  private final boolean stopFirst;
  private final List<FaultKind> plan = new ArrayList<>();
  private boolean opened;

  /**
   * A plan over {@code kinds}, the kinds the phase can inject; with {@code stopFirst} every round
   * opens with a {@code SIGSTOP} (the negative control's, which must show its violations soon).
   */
  FaultPlan(Random random, Set<FaultKind> kinds, boolean stopFirst) {
    this.random = random;
    this.kinds = kinds.isEmpty() ? EnumSet.noneOf(FaultKind.class) : EnumSet.copyOf(kinds);
    this.stopFirst = stopFirst;
  }

  /** The next fault to inject. */
  FaultKind next() {
    if (plan.isEmpty()) {
      plan.addAll(round());
    }
    return plan.remove(0);
  }

  /** Puts {@code kind} back, to come right after the next fault. */
  void defer(FaultKind kind) {
    plan.add(Math.min(1, plan.size()), kind);
  }

  private List<FaultKind> round() {
    List<FaultKind> round = new ArrayList<>(kinds);
    // Twice a round: the store has more kinds of fault than a worker, and a phase on a private
    // server is there for its restarts.
    round.addAll(twiceOnly(FaultKind.STORAGE));
    round.addAll(twiceOnly(FaultKind.DB_RESTART));
    Collections.shuffle(round, random);
    if (!opened) {
      opened = true;
      List<FaultKind> opening = opening();
      opening.forEach(round::remove);
      round.addAll(0, opening);
    }
    if (stopFirst) {
      moveToFront(round, FaultKind.STOP);
    }
    moveToFront(round, FaultKind.DB_RESTART);
    return round;
  }

  private List<FaultKind> twiceOnly(FaultKind kind) {
    return kinds.contains(kind) ? List.of(kind) : List.of();
  }

  /** One of each family the phase must have, in the order of the families' importance. */
  private List<FaultKind> opening() {
    List<FaultKind> opening = new ArrayList<>();
    add(opening, FaultKind.STORAGE);
    if (kinds.contains(FaultKind.RUN_KILL)) {
      opening.add(LEASE_RUN_FAULTS.get(random.nextInt(LEASE_RUN_FAULTS.size())));
    }
    add(opening, FaultKind.STDERR);
    add(opening, FaultKind.KILL);
    add(opening, FaultKind.STOP);
    add(opening, FaultKind.DB_KILL);
    add(opening, FaultKind.DB_CUT);
    if (kinds.contains(FaultKind.RUN_DB_KILL)) {
      // A lease run hit through the database too.
      opening.add(random.nextBoolean() ? FaultKind.RUN_DB_KILL : FaultKind.RUN_DB_CUT);
    }
    return opening;
  }

  private void add(List<FaultKind> opening, FaultKind kind) {
    if (kinds.contains(kind)) {
      opening.add(kind);
    }
  }

  private static void moveToFront(List<FaultKind> round, FaultKind kind) {
    if (round.remove(kind)) {
      round.add(0, kind);
    }
  }
}
