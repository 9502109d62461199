/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract's random walks cover the cases that could make a generation go back or let a stale
 * holder write: takeovers (of crashed and of frozen holders), refused fenced work, releases, and
 * pruning where the repository prunes.
 */
class GenerationWalkTest {

  @Test
  void everyWalkOfTheContractTakesOverRefusesStaleHoldersAndReleases() throws Exception {
    for (long seed : LeaseRepositoryContract.WALK_SEEDS) {
      GenerationWalk walk = new GenerationWalk(new MemoryLeaseRepository(), seed);
      walk.run(LeaseRepositoryContract.WALK_STEPS);

      assertThat(walk.counts())
          .as("events of the walk with seed %d", seed)
          .containsKeys(
              "free acquisitions",
              "takeovers",
              "held",
              "releases",
              "fenced runs",
              "stale holder refused",
              "lost handle refused",
              "crashes",
              "freezes and thaws");
    }
  }

  @Test
  void walksOnAPrunableRepositoryPruneAndAcquireAgain() throws Exception {
    int prunes = 0;
    for (long seed : LeaseRepositoryContract.WALK_SEEDS) {
      GenerationWalk walk = new GenerationWalk(new MemoryLeaseRepository(), seed);
      walk.run(LeaseRepositoryContract.WALK_STEPS);
      Map<String, Integer> counts = walk.counts();
      prunes += counts.getOrDefault("prunes", 0);
    }

    assertThat(prunes).as("prune steps over all walks").isGreaterThanOrEqualTo(2);
  }
}
