/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code @Leased(ttl = ...)}: each method's leases have its TTL, from a manager of their own. */
class LeasedTtlTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
          .withUserConfiguration(Application.class)
          .withPropertyValues("lease.ttl=5s");

  @TempDir Path directory;

  @Test
  void eachCallsLeaseHasItsMethodsTtlOrTheManagersWithout() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          assertThat(jobs.shortLived().ttl()).isEqualTo(Duration.ofSeconds(2));
          assertThat(jobs.plain().ttl()).isEqualTo(Duration.ofSeconds(5));
          // The same TTL written otherwise is the same manager; the manager's own TTL is its own.
          assertThat(jobs.shortLivedInMillis().ttl()).isEqualTo(Duration.ofSeconds(2));
          assertThat(jobs.asLongAsTheManagers().ttl()).isEqualTo(Duration.ofSeconds(5));
          LeaseManagers managers = context.getBean(LeaseManagers.class);
          LeaseManager application = context.getBean(LeaseManager.class);
          assertThat(managers.defaultManager()).isSameAs(application);
          assertThat(managers.all()).hasSize(2).startsWith(application);
          LeaseManager twoSeconds = managers.forTtl(Duration.ofSeconds(2));
          assertThat(twoSeconds.config())
              .isEqualTo(new LeaseConfig(Duration.ofSeconds(2), Duration.ofMillis(500)));
        });
  }

  @Test
  void theManagerOfATtlIsNamedAfterTheApplicationsAndKeepsAValidHeartbeat() {
    runner
        .withPropertyValues(
            "spring.application.name=billing", "lease.ttl=10s", "lease.heartbeat=1s")
        .run(
            context -> {
              LeaseManagers managers = context.getBean(LeaseManagers.class);
              LeaseManager twoSeconds = managers.forTtl(Duration.ofSeconds(2));
              assertThat(twoSeconds.name()).isEqualTo("billing-ttl2s");
              // lease.heartbeat is at most half of 2 s: kept.
              assertThat(twoSeconds.config().heartbeat()).isEqualTo(Duration.ofSeconds(1));
              LeaseManager oneAndAHalf = managers.forTtl(Duration.ofMillis(1_500));
              assertThat(oneAndAHalf.name()).isEqualTo("billing-ttl1500ms");
              // lease.heartbeat is too slow for 1.5 s: the builder's quarter of the TTL.
              assertThat(oneAndAHalf.config().heartbeat()).isEqualTo(Duration.ofMillis(375));
            });
    String longest = "a".repeat(64);
    runner
        .withPropertyValues("lease.name=" + longest)
        .run(
            context ->
                assertThat(context.getBean(LeaseManagers.class).forTtl(Duration.ofHours(1)).name())
                    .hasSize(64)
                    .isEqualTo("a".repeat(64 - "-ttl3600s".length()) + "-ttl3600s"));
  }

  @Test
  void anInvalidTtlFailsTheFirstCallWithAMessageNamingTheMethod() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          assertThatThrownBy(jobs::notADuration)
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("@Leased(ttl = \"soon\")")
              .hasMessageContaining("notADuration");
          assertThatThrownBy(jobs::tooShort)
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("@Leased(ttl = \"500ms\")")
              .hasMessageContaining("tooShort")
              .hasMessageContaining("from PT1S");
          assertThat(jobs.runs()).isZero(); // through the proxy, as callers see the bean
        });
  }

  @Test
  void theManagersOfTtlsAreClosedWithTheContextAndReleaseTheirLeasesBeforeTheStoreCloses() {
    Path database = directory.resolve("leases.db");
    long[] generation = new long[1];
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
        .withPropertyValues("lease.sqlite.path=" + database, "lease.ttl=5s")
        .run(
            context -> {
              assertThat(context).hasSingleBean(SqliteLeaseRepository.class);
              LeaseManager twoSeconds =
                  context.getBean(LeaseManagers.class).forTtl(Duration.ofSeconds(2));
              Lease lease = twoSeconds.acquire("nightly");
              generation[0] = lease.generation();
              // Left held: the context's close must release it while the store is still open.
            });
    try (SqliteLeaseRepository reader = SqliteLeaseRepository.open(database)) {
      LeaseSnapshot record = reader.load("nightly").orElseThrow();
      assertThat(record.generation()).isEqualTo(generation[0]);
      assertThat(record.ttl()).isEqualTo(Duration.ofSeconds(2));
      assertThat(record.state()).isEqualTo(LeaseState.RELEASED);
    }
  }

  @Test
  void aClosedContextsManagersMakeNoMore() {
    LeaseManagers[] managers = new LeaseManagers[1];
    runner.run(context -> managers[0] = context.getBean(LeaseManagers.class));
    assertThatThrownBy(() -> managers[0].forTtl(Duration.ofSeconds(3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Configuration(proxyBeanMethods = false)
  static class Application {
    final MemoryLeaseRepository store = new MemoryLeaseRepository();

    @Bean
    LeaseRepository leaseRepository() {
      return store;
    }

    @Bean
    Jobs jobs() {
      return new Jobs(store);
    }
  }

  /** Jobs that report the TTL of their lease's record, as the store has it while they run. */
  static class Jobs {
    private final LeaseRepository store;
    private int runs;

    Jobs(LeaseRepository store) {
      this.store = store;
    }

    int runs() {
      return runs;
    }

    @Leased(key = "short", ttl = "2s")
    LeaseSnapshot shortLived() {
      return record();
    }

    @Leased(key = "short-too", ttl = "2000ms")
    LeaseSnapshot shortLivedInMillis() {
      return record();
    }

    @Leased(key = "plain")
    LeaseSnapshot plain() {
      return record();
    }

    @Leased(key = "as-long", ttl = "PT5S")
    LeaseSnapshot asLongAsTheManagers() {
      return record();
    }

    @Leased(key = "broken", ttl = "soon")
    void notADuration() {
      runs++;
    }

    @Leased(key = "broken", ttl = "500ms")
    void tooShort() {
      runs++;
    }

    private LeaseSnapshot record() {
      runs++;
      return store.load(CurrentLease.token().key()).orElseThrow();
    }
  }
}
