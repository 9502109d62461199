/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.time.Duration;
import java.util.Set;

/**
 * One phase of a harness run: a repository attacked for a while by a number of workers.
 *
 * @param label the phase's name, also its directory's
 * @param store the repository
 * @param fencing whether the resource rejects stale writes (off only for the negative control)
 * @param duration how long faults are injected
 * @param workers how many worker JVMs run at once
 * @param seed the seed of the phase's faults and workers
 * @param negativeControl whether the phase must show violations to pass
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
   * private server a restart).
   *
   * @return the thresholds
   */
  public Thresholds thresholds() {
    Thresholds counts = Thresholds.forSeconds((int) duration.toSeconds());
    if (negativeControl) {
      return counts;
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
