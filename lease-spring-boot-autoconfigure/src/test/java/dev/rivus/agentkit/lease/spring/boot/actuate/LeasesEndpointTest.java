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
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.DefaultParameterNameDiscoverer;

/** The {@code leases} endpoint: the leases held here and the store's records. */
class LeasesEndpointTest {

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
  void theEndpointListsTheLeasesHeldHereAndTheStoresRecords() {
    runner.run(
        context -> {
          LeasesEndpoint endpoint = context.getBean(LeasesEndpoint.class);
          LeaseManager manager = context.getBean(LeaseManager.class);
          try (Lease lease = manager.acquire("nightly-report")) {
            await()
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(
                    () ->
                        assertThat(endpoint.held().leases())
                            .singleElement()
                            .satisfies(
                                held -> {
                                  assertThat(held.key()).isEqualTo("nightly-report");
                                  assertThat(held.generation()).isEqualTo(lease.generation());
                                  assertThat(held.manager()).isEqualTo(manager.name());
                                  assertThat(held.lastRenewal()).isAfter(held.heldSince());
                                }));
            assertThat(endpoint.held().rounds())
                .singleElement()
                .satisfies(round -> assertThat(round.late()).isFalse());

            LeasesEndpoint.Records records =
                (LeasesEndpoint.Records) endpoint.records(new String[] {"records"});
            assertThat(records.total()).isEqualTo(1);
            assertThat(records.records())
                .singleElement()
                .satisfies(
                    record -> {
                      assertThat(record.key()).isEqualTo("nightly-report");
                      assertThat(record.state()).isEqualTo("held");
                      assertThat(record.generation()).isEqualTo(lease.generation());
                    });
            assertThat(endpoint.records(new String[] {"records", "nightly-report"}))
                .isInstanceOf(LeasesEndpoint.StoredRecord.class);
            assertThat(endpoint.records(new String[] {"records", "no-such-key"})).isNull();
            assertThat(endpoint.records(new String[] {"other"})).isNull();
          }
          // Events reach listeners on their own thread, after the release.
          await()
              .atMost(Duration.ofSeconds(10))
              .untilAsserted(() -> assertThat(endpoint.held().leases()).isEmpty());
        });
  }

  @Test
  void aKeyWithSlashesIsFoundByItsPath() {
    runner.run(
        context -> {
          LeasesEndpoint endpoint = context.getBean(LeasesEndpoint.class);
          try (Lease lease = context.getBean(LeaseManager.class).acquire("reports/eu/daily")) {
            assertThat(endpoint.records(new String[] {"records", "reports", "eu", "daily"}))
                .isInstanceOfSatisfying(
                    LeasesEndpoint.StoredRecord.class,
                    record -> assertThat(record.generation()).isEqualTo(lease.generation()));
          }
        });
  }

  @Test
  void theRecordsOperationsParameterKeepsItsNameForTheActuatorsMapping() throws Exception {
    // The actuator maps an operation's parameters by name, read from the class file (-parameters).
    assertThat(
            new DefaultParameterNameDiscoverer()
                .getParameterNames(LeasesEndpoint.class.getMethod("records", String[].class)))
        .containsExactly("path");
  }
}
