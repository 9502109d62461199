/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.time.Duration;

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
   * Returns the least activity the phase must show.
   *
   * @return thresholds scaled with its duration
   */
  public Thresholds thresholds() {
    return Thresholds.forSeconds((int) duration.toSeconds());
  }
}
