/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.core.tck.MeterRegistryAssert;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The meters a manager's events make, with their names and tags. */
class LeaseMetricsTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FakePlatform platform = Samples.platformOf(100);
  private final FakePlatform otherPlatform = Samples.platformOf(200);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private LeaseManager manager = managerWith(LeaseMetrics.create());
  private final LeaseManager other = otherPlatform.newManager(store, TTL, HEARTBEAT);

  @AfterEach
  void closeManagers() {
    manager.close();
    other.close();
  }

  private LeaseManager managerWith(LeaseMetrics metrics) {
    metrics.bindTo(registry);
    return platform
        .managerBuilder(store)
        .ttl(TTL)
        .heartbeat(HEARTBEAT)
        .name("billing")
        .listener(metrics)
        .build();
  }

  @Test
  void acquisitionsAreCountedByOutcomeAndTheHeldGaugeFollowsThem() {
    Lease first = manager.acquire("a");
    Lease second = manager.acquire("b");
    assertThat(held()).isEqualTo(2);
    first.close();
    assertThat(held()).isEqualTo(1);
    manager.acquire("a").close();
    platform.markRunning(otherPlatform.currentProcess());
    other.acquire("c");
    assertThatThrownBy(() -> manager.acquire("c")).isInstanceOf(LeaseHeld.class);

    assertThat(acquisitions("new")).isEqualTo(2);
    assertThat(acquisitions("after_release")).isEqualTo(1);
    assertThat(acquisitions("held_by_another")).isEqualTo(1);
    assertThat(held()).isEqualTo(1);
    second.close();
    assertThat(held()).isZero();
    // No key tag unless asked for.
    MeterRegistryAssert.assertThat(registry)
        .doesNotHaveMeterWithNameAndTagKeys("lease.acquisitions", "key");
  }

  @Test
  void renewalRoundsAreTimedOncePerRoundAndFailuresAndLossesCounted() {
    Lease first = manager.acquire("a");
    Lease second = manager.acquire("b");
    platform.advance(HEARTBEAT);
    assertThat(registry.get("lease.renewal.round").tag("manager", "billing").timer().count())
        .isEqualTo(1);

    // Another holder takes the record over: the next round finds it gone.
    takeOver("a");
    platform.advance(HEARTBEAT);
    assertThat(first.isHeld()).isFalse();
    assertThat(registry.get("lease.losses").tags("manager", "billing").counter().count())
        .isEqualTo(1);
    assertThat(registry.get("lease.renewal.round").timer().count()).isEqualTo(2);
    assertThat(held()).isEqualTo(1);
    second.close();
  }

  @Test
  void fencedWorkIsTimedByOutcome() throws Exception {
    Lease lease = manager.acquire("job");
    String done = lease.runFenced(token -> "done");
    assertThat(done).isEqualTo("done");
    assertThatThrownBy(
            () ->
                lease.runFenced(
                    token -> {
                      throw new IllegalStateException("the job failed");
                    }))
        .hasMessage("the job failed");
    lease.close();
    assertThatThrownBy(() -> lease.runFenced(token -> "late")).isInstanceOf(LeaseLost.class);

    for (String outcome : new String[] {"completed", "failed", "lost"}) {
      MeterRegistryAssert.assertThat(registry)
          .hasTimerWithNameAndTags(
              "lease.fenced.work", Tags.of("manager", "billing", "outcome", outcome));
      assertThat(registry.get("lease.fenced.work").tag("outcome", outcome).timer().count())
          .isEqualTo(1);
    }
  }

  @Test
  void keyTagsAreBoundedByTheirLimit() {
    manager.close();
    manager = managerWith(LeaseMetrics.withKeyTags(2));
    for (String key : new String[] {"a", "b", "c", "d"}) {
      manager.acquire(key).close();
    }
    MeterRegistryAssert.assertThat(registry)
        .hasMeterWithNameAndTags("lease.acquisitions", Tags.of("key", "a", "outcome", "new"))
        .hasMeterWithNameAndTags("lease.acquisitions", Tags.of("key", "b", "outcome", "new"))
        .doesNotHaveMeterWithNameAndTags("lease.acquisitions", Tags.of("key", "c"));
    assertThat(
            registry
                .get("lease.acquisitions")
                .tags("key", LeaseMetrics.OTHER_KEYS, "outcome", "new")
                .counter()
                .count())
        .isEqualTo(2);
    assertThatThrownBy(() -> LeaseMetrics.withKeyTags(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void leasesHeldBeforeTheRegistryIsBoundAreInTheGauge() {
    LeaseMetrics metrics = LeaseMetrics.create();
    try (LeaseManager early =
        platform
            .managerBuilder(store)
            .ttl(TTL)
            .heartbeat(HEARTBEAT)
            .name("early")
            .listener(metrics)
            .build()) {
      early.acquire("x");
      metrics.bindTo(registry);
      assertThat(registry.get("lease.held").tag("manager", "early").gauge().value()).isEqualTo(1);
    }
  }

  /** The other manager takes the key over, at once or after its TTL, as its judge says. */
  private void takeOver(String key) {
    try {
      other.acquire(key);
    } catch (LeaseHeld held) {
      otherPlatform.advance(TTL);
      other.acquire(key);
    }
  }

  private double held() {
    return registry.get("lease.held").tag("manager", "billing").gauge().value();
  }

  private double acquisitions(String outcome) {
    return registry
        .get("lease.acquisitions")
        .tags("manager", "billing", "outcome", outcome)
        .counter()
        .count();
  }
}
