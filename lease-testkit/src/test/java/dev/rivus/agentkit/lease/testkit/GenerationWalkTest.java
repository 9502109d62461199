package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract's random walks cover the cases that could make a generation go back. */
class GenerationWalkTest {

  @Test
  void everyWalkOfTheContractTakesOverRefusesAndReleases() throws Exception {
    for (long seed : LeaseRepositoryContract.WALK_SEEDS) {
      GenerationWalk walk = new GenerationWalk(new MemoryLeaseRepository(), seed);
      walk.run(LeaseRepositoryContract.WALK_STEPS);
      Map<String, Integer> counts = walk.counts();
      System.out.println("seed " + seed + ": " + counts);

      assertThat(counts)
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
}
