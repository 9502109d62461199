/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import static dev.rivus.agentkit.lease.safety.faults.FaultKind.DB_CUT;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.DB_KILL;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.DB_RESTART;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.KILL;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.MONO;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.RUN_DB_CUT;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.RUN_DB_KILL;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.RUN_KILL;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.RUN_STDERR;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.RUN_STOP;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.STDERR;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.STOP;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.STORAGE;
import static dev.rivus.agentkit.lease.safety.faults.FaultKind.WALL;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The order of a phase's faults: what its first round opens with, rounds, deferred faults. */
class FaultPlanTest {

  private static final Set<FaultKind> FILE_PHASE =
      EnumSet.of(KILL, STOP, WALL, MONO, STORAGE, STDERR, RUN_KILL, RUN_STOP, RUN_STDERR);
  private static final Set<FaultKind> RESTART_PHASE =
      EnumSet.of(
          KILL,
          STOP,
          WALL,
          MONO,
          RUN_KILL,
          RUN_STOP,
          RUN_STDERR,
          DB_KILL,
          DB_CUT,
          DB_RESTART,
          RUN_DB_KILL,
          RUN_DB_CUT);

  @Test
  void theFirstRoundOpensWithOneFaultOfEachFamilyThePhaseMustHave() {
    for (long seed = 0; seed < 50; seed++) {
      List<FaultKind> opening = take(new FaultPlan(new Random(seed), FILE_PHASE, false), 5);
      assertThat(opening.get(0)).isEqualTo(STORAGE);
      assertThat(opening.get(1)).isIn(RUN_KILL, RUN_STOP, RUN_STDERR);
      assertThat(opening.subList(2, 5)).containsExactly(STDERR, KILL, STOP);
    }
  }

  @Test
  void onAPrivateServerARestartOpensEveryRoundAndTheFirstHasEveryDatabaseFamily() {
    FaultPlan plan = new FaultPlan(new Random(7), RESTART_PHASE, false);
    List<FaultKind> first = take(plan, RESTART_PHASE.size() + 1);
    assertThat(first.subList(0, 7))
        .startsWith(DB_RESTART)
        .contains(KILL, STOP, DB_KILL, DB_CUT)
        .containsAnyOf(RUN_KILL, RUN_STOP, RUN_STDERR)
        .containsAnyOf(RUN_DB_KILL, RUN_DB_CUT);
    assertThat(first).filteredOn(DB_RESTART::equals).hasSize(2);
    assertThat(plan.next()).as("the second round opens with a restart too").isEqualTo(DB_RESTART);
  }

  @Test
  void everyRoundHasEveryKindAndTheStorageFaultsTwice() {
    FaultPlan plan = new FaultPlan(new Random(3), FILE_PHASE, false);
    for (int round = 0; round < 3; round++) {
      List<FaultKind> faults = take(plan, FILE_PHASE.size() + 1);
      assertThat(faults).containsAll(FILE_PHASE);
      assertThat(faults).filteredOn(STORAGE::equals).hasSize(2);
    }
  }

  @Test
  void aDeferredFaultComesRightAfterTheNextOne() {
    FaultPlan plan = new FaultPlan(new Random(1), FILE_PHASE, false);
    plan.next(); // STORAGE
    FaultKind runFault = plan.next();
    plan.defer(runFault);
    FaultKind between = plan.next();
    assertThat(between).isEqualTo(STDERR);
    assertThat(plan.next()).isEqualTo(runFault);
    assertThat(plan.next()).isEqualTo(KILL);
  }

  @Test
  void aFaultDeferredAtTheEndOfARoundComesFirstInTheNext() {
    FaultPlan plan = new FaultPlan(new Random(1), EnumSet.of(KILL, STOP), false);
    take(plan, 2);
    plan.defer(KILL);
    assertThat(plan.next()).isEqualTo(KILL);
  }

  @Test
  void theNegativeControlOpensEveryRoundWithAStop() {
    FaultPlan plan = new FaultPlan(new Random(5), EnumSet.of(KILL, STOP, WALL, MONO), true);
    for (int round = 0; round < 4; round++) {
      assertThat(take(plan, 4).get(0)).isEqualTo(STOP);
    }
  }

  @Test
  void theSameSeedGivesTheSameFaults() {
    assertThat(take(new FaultPlan(new Random(11), RESTART_PHASE, false), 40))
        .isEqualTo(take(new FaultPlan(new Random(11), RESTART_PHASE, false), 40));
  }

  private static List<FaultKind> take(FaultPlan plan, int count) {
    List<FaultKind> faults = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      faults.add(plan.next());
    }
    return faults;
  }
}
