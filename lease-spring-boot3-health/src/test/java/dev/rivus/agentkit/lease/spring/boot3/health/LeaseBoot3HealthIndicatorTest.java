/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot3.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseActuatorAutoConfiguration;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code lease} health on Spring Boot 3.5, through Boot's own health endpoint. */
class LeaseBoot3HealthIndicatorTest {

  private final AtomicBoolean failing = new AtomicBoolean();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LeaseAutoConfiguration.class,
                  LeaseActuatorAutoConfiguration.class,
                  LeaseBoot3HealthAutoConfiguration.class,
                  HealthContributorAutoConfiguration.class,
                  HealthEndpointAutoConfiguration.class))
          .withBean(LeaseRepository.class, () -> new FailingReads(failing))
          .withPropertyValues("management.endpoint.health.show-details=always");

  @Test
  void theHealthEndpointShowsTheLeasesAndGoesDownWhenTheStoreFails() {
    runner.run(
        context -> {
          HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
          try (Lease lease = context.getBean(LeaseManager.class).acquire("nightly")) {
            HealthComponent up = endpoint.healthForPath("lease");
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            failing.set(true);
            assertThat(endpoint.healthForPath("lease").getStatus()).isEqualTo(Status.DOWN);
            assertThat(endpoint.health().getStatus()).isEqualTo(Status.DOWN);
            failing.set(false);
          }
        });
  }

  @Test
  void itCanBeTurnedOff() {
    runner
        .withPropertyValues("management.health.lease.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(LeaseBoot3HealthIndicator.class));
  }

  /** A memory store whose reads fail while told to. */
  private static final class FailingReads extends ForwardingLeaseRepository {

    private final AtomicBoolean failing;

    FailingReads(AtomicBoolean failing) {
      super(new MemoryLeaseRepository());
      this.failing = failing;
    }

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      if (failing.get()) {
        throw new LeaseRepositoryFailure(key, "store unreachable", null);
      }
      return super.load(key);
    }
  }
}
