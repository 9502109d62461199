/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseActuatorAutoConfiguration;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code lease} health on Spring Boot 4, and the endpoint's exposure. */
class LeaseHealthIndicatorTest {

  private final GatedRepository repository = new GatedRepository();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LeaseAutoConfiguration.class, LeaseActuatorAutoConfiguration.class))
          .withBean(LeaseRepository.class, () -> repository)
          .withPropertyValues(
              "lease.ttl=2s",
              "lease.heartbeat=200ms",
              "management.endpoints.web.exposure.include=health,leases");

  @Test
  void theHealthIsDownWhileTheStoreFails() {
    runner.run(
        context -> {
          LeaseHealthIndicator indicator = context.getBean(LeaseHealthIndicator.class);
          assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
          repository.failing.set(true);
          Health down = indicator.health();
          assertThat(down.getStatus()).isEqualTo(Status.DOWN);
          assertThat(down.getDetails().get("error").toString()).contains("store unreachable");
          repository.failing.set(false);
          assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        });
  }

  @Test
  void theHealthIsDownWhileRenewalRoundsRunLateAndUpAfterARoundOnTime() {
    runner.run(
        context -> {
          LeaseHealthIndicator indicator = context.getBean(LeaseHealthIndicator.class);
          try (Lease lease = context.getBean(LeaseManager.class).acquire("payments")) {
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            // The store hangs: the round that renews the lease runs late, before the lease is lost.
            CountDownLatch hung = repository.hang();
            await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> indicator.health().getStatus().equals(Status.DOWN));
            assertThat(indicator.health().getDetails().get("late"))
                .isEqualTo(List.of(context.getBean(LeaseManager.class).name()));
            hung.countDown();
            await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> indicator.health().getStatus().equals(Status.UP));
          }
        });
  }

  @Test
  void theHealthCanBeTurnedOffAndTheEndpointIsOnlyThereWhenExposed() {
    runner
        .withPropertyValues(
            "management.health.lease.enabled=false",
            "management.endpoints.web.exposure.include=health")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(LeaseHealthIndicator.class);
              assertThat(context).doesNotHaveBean(LeasesEndpoint.class);
              assertThat(context).hasSingleBean(HeldLeases.class);
            });
  }
}
