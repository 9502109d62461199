/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.shedlock.LeaseLockProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** ShedLock's lock provider on the application's lease manager, and a job under it. */
class LeaseShedLockAutoConfigurationTest {

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LeaseAutoConfiguration.class, LeaseShedLockAutoConfiguration.class))
          .withBean(LeaseRepository.class, () -> store)
          .withPropertyValues("lease.ttl=5s");

  @Test
  void theLockProviderIsOnTheApplicationsManagerAndClosedWithTheContext() {
    LeaseLockProvider[] provider = new LeaseLockProvider[1];
    runner.run(
        context -> {
          assertThat(context).hasSingleBean(LockProvider.class);
          provider[0] = context.getBean(LeaseLockProvider.class);
          Optional<SimpleLock> lock = provider[0].lock(lockOf("report"));
          assertThat(lock).isPresent();
          assertThat(store.load("report").orElseThrow().ttl())
              .isEqualTo(context.getBean(LeaseManager.class).config().ttl());
          // Left locked: the context's close must release it.
        });
    assertThat(store.load("report").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
    assertThatThrownBy(() -> provider[0].lock(lockOf("report")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void theApplicationsOwnLockProviderWins() {
    LockProvider own = configuration -> Optional.empty();
    runner
        .withBean(LockProvider.class, () -> own)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(LeaseLockProvider.class);
              assertThat(context.getBean(LockProvider.class)).isSameAs(own);
            });
  }

  @Test
  void withoutShedLockOrWithoutAManagerThereIsNoLockProvider() {
    runner
        .withClassLoader(new FilteredClassLoader(LockProvider.class))
        .run(context -> assertThat(context).doesNotHaveBean(LeaseLockProvider.class));
    runner
        .withClassLoader(new FilteredClassLoader(LeaseLockProvider.class))
        .run(context -> assertThat(context).doesNotHaveBean(LeaseLockProvider.class));
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LeaseAutoConfiguration.class, LeaseShedLockAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader("dev.rivus.agentkit.lease.sqlite"))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(LeaseManager.class);
              assertThat(context).doesNotHaveBean(LockProvider.class);
            });
  }

  @Test
  void aSchedulerLockJobRunsUnderTheLeaseWithItsTokenAndIsSkippedWhileAnotherHoldsIt() {
    runner
        .withUserConfiguration(ShedLockJobs.class)
        .run(
            context -> {
              Report report = context.getBean(Report.class);
              report.run();
              assertThat(report.runs()).isEqualTo(1);
              assertThat(report.token()).isPresent();
              assertThat(report.token().getAsLong())
                  .isEqualTo(store.load("report").orElseThrow().generation());
              assertThat(store.load("report").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);

              try (LeaseManager otherInstance =
                      LeaseManager.builder(store).ttl(Duration.ofSeconds(5)).build();
                  Lease held = otherInstance.acquire("report")) {
                report.run();
                assertThat(report.runs()).isEqualTo(1); // skipped
              }
              report.run();
              assertThat(report.runs()).isEqualTo(2);
            });
  }

  private static LockConfiguration lockOf(String name) {
    return new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO);
  }

  @Configuration(proxyBeanMethods = false)
  @EnableSchedulerLock(defaultLockAtMostFor = "PT1M")
  static class ShedLockJobs {
    @Bean
    Report report(LeaseLockProvider provider) {
      return new Report(provider);
    }
  }

  /** A job as ShedLock's users write it. */
  static class Report {
    private final LeaseLockProvider provider;
    private int runs;
    private OptionalLong token = OptionalLong.empty();

    Report(LeaseLockProvider provider) {
      this.provider = provider;
    }

    @SchedulerLock(name = "report")
    public void run() {
      runs++;
      token = provider.currentToken();
    }

    // Read through the proxy, as callers see the bean: methods reach the target, fields do not.
    public int runs() {
      return runs;
    }

    public OptionalLong token() {
      return token;
    }
  }
}
