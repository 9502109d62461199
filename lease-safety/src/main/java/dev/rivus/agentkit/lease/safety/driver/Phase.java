/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import dev.rivus.agentkit.lease.safety.check.Thresholds;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import dev.rivus.agentkit.lease.safety.store.Database;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import java.time.Duration;
import java.util.Set;

/**
 * One phase of a harness run: a repository attacked for a while by a number of workers.
 *
 * <p>Immutable; thread-safe.
 *
 * @param label the phase's name, also its directory's
 * @param store the repository
 * @param fencing whether the resource rejects stale writes (off for the negative control, and for
 *     mutation runs and their control, {@link MutantMain}; a file or SQLite phase without it has no
 *     storage fault that loses the store)
 * @param duration how long faults are injected
 * @param workers how many worker JVMs run at once
 * @param seed the seed of the phase's faults and workers
 * @param negativeControl whether the phase must show violations to pass (the negative control, a
 *     mutant's run)
 */
public record Phase(
    String label,
    StoreKind store,
    boolean fencing,
    Duration duration,
    int workers,
    long seed,
    boolean negativeControl) {

  /**
   * Returns the least activity the phase must show: counts scaled with its duration, and, for an
   * attacked phase, at least one fault of each family it is there for (a kill, a stop, a fault of a
   * {@code lease run} process, and a {@code lease run} that acquired; on files and SQLite a storage
   * fault and a blocked stderr; on a database its sessions ended and its network cut, and on a
   * private server a restart). A phase without fencing that must pass (a mutation run's control)
   * needs the counts and a stop only: each of its rounds opens with a long stop, so a short phase
   * has too few rounds for every family, and it is there to show that the real library passes the
   * mutants' phase, not to cover every fault.
   *
   * @return the thresholds
   */
  public Thresholds thresholds() {
    Thresholds counts = Thresholds.forSeconds((int) duration.toSeconds());
    if (negativeControl) {
      return counts;
    }
    if (!fencing) {
      return counts.requiring(Set.of("stop"));
    }
    Thresholds attacked =
        counts
            .requiring(Set.of("kill"))
            .requiring(Set.of("stop"))
            .requiring(LeaseRunSlot.KINDS)
            .requiringLeaseRuns(1);
    if (store == StoreKind.FILE || store == StoreKind.SQLITE) {
      attacked = attacked.requiring(StorageFaults.KINDS).requiring(Set.of("stderr_block"));
    }
    if (Database.of(store) != null) {
      attacked = attacked.requiring(Set.of("db_kill")).requiring(Set.of("db_cut"));
    }
    if (store.onPrivateServer()) {
      attacked = attacked.requiring(Set.of("db_restart"));
    }
    return attacked;
  }
}
