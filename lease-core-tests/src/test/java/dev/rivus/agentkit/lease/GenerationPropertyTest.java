/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * For any interleaving of acquisitions, releases, renewals, clock steps and process deaths among
 * three fake processes, every acquisition of a key gets a generation higher than all before it, and
 * fenced work runs only for the handle whose generation the record holds.
 */
class GenerationPropertyTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  enum Step {
    ACQUIRE_0,
    ACQUIRE_1,
    ACQUIRE_2,
    RELEASE_0,
    RELEASE_1,
    RELEASE_2,
    BEAT_0,
    BEAT_1,
    BEAT_2,
    SLEEP_0,
    SLEEP_1,
    SLEEP_2,
    KILL_0,
    KILL_1,
    KILL_2
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    return Arbitraries.of(Step.class).list().ofMinSize(1).ofMaxSize(60);
  }

  private static void assertOnlyTheCurrentHolderRunsFencedWork(
      LeaseRepository repository, Lease[] leases) {
    for (Lease lease : leases) {
      if (lease == null) {
        continue;
      }
      try {
        long ran = lease.runFenced(FencingToken::generation);
        LeaseSnapshot stored = repository.load("key").orElseThrow();
        assertThat(stored.isHeld()).isTrue();
        assertThat(ran).isEqualTo(stored.generation());
      } catch (LeaseLost refused) {
        assertThat(lease.isHeld()).isFalse();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Property(tries = 300)
  void generationsOnlyRise(@ForAll("steps") List<Step> steps) {
    MemoryLeaseRepository repository = new MemoryLeaseRepository();
    FakePlatform[] platforms = new FakePlatform[3];
    LeaseManager[] managers = new LeaseManager[3];
    Lease[] leases = new Lease[3];
    for (int i = 0; i < 3; i++) {
      platforms[i] = Samples.platformOf(100 + i);
    }
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        platforms[i].markRunning(platforms[j].currentProcess());
      }
      managers[i] = platforms[i].newManager(repository, TTL, HEARTBEAT);
    }
    List<Long> granted = new ArrayList<>();
    try {
      for (Step step : steps) {
        int who = step.ordinal() % 3;
        switch (step.name().substring(0, step.name().indexOf('_'))) {
          case "ACQUIRE":
            try {
              Lease lease = managers[who].acquire("key");
              granted.add(lease.generation());
              leases[who] = lease;
            } catch (LeaseHeld held) {
              assertThat(held.generation()).isEqualTo(granted.get(granted.size() - 1));
            }
            break;
          case "RELEASE":
            if (leases[who] != null) {
              leases[who].close();
            }
            break;
          case "BEAT":
            platforms[who].advance(HEARTBEAT);
            break;
          case "SLEEP":
            platforms[who].advance(TTL);
            break;
          default: // KILL: the others now see this process as gone
            for (int j = 0; j < 3; j++) {
              if (j != who) {
                platforms[j].kill(platforms[who].currentProcess());
              }
            }
            break;
        }
        assertThat(granted).isSorted().doesNotHaveDuplicates();
        assertThat(repository.load("key").map(LeaseSnapshot::generation).orElse(0L))
            .isEqualTo(granted.isEmpty() ? 0L : granted.get(granted.size() - 1));
        assertOnlyTheCurrentHolderRunsFencedWork(repository, leases);
      }
    } finally {
      for (LeaseManager manager : managers) {
        manager.close();
      }
    }
  }
}
