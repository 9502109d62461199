/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.micrometer.LeaseMetrics;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

/** {@code @Leased} methods: their key, token, skips, hold-at-least and {@code @Async}. */
class LeasedTest {

  private static final MemoryLeaseRepository STORE = new MemoryLeaseRepository();

  /** Another instance of the application, on the same store. */
  private final LeaseManager otherInstance =
      LeaseManager.builder(STORE).ttl(Duration.ofSeconds(5)).name("other").build();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
          .withUserConfiguration(Application.class)
          .withPropertyValues("lease.ttl=5s", "job.region=eu");

  @AfterEach
  void closeTheOtherInstance() {
    otherInstance.close();
  }

  @Test
  void theMethodGetsItsLeasesTokenAndEachRunATokenAboveTheLast() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          Long first = jobs.report("eu", null);
          Long second = jobs.report("eu", null);
          assertThat(first).isNotNull();
          assertThat(second).isGreaterThan(first);
          // A @Scheduled method takes no parameters: it reads the token from CurrentLease.
          assertThat(jobs.nightly()).isEqualTo("eu-nightly");
          assertThatThrownBy(CurrentLease::token).isInstanceOf(IllegalStateException.class);
          assertThat(CurrentLease.lease()).isEmpty();
        });
  }

  @Test
  void aCallIsSkippedNotFailedWhileAnotherInstanceHoldsTheLease() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          SimpleMeterRegistry registry = new SimpleMeterRegistry();
          context.getBean(LeaseMetrics.class).bindTo(registry);
          try (Lease held = otherInstance.acquire("report-eu")) {
            assertThat(jobs.report("eu", null)).isNull();
            assertThat(jobs.runs()).isZero(); // through the proxy, as callers see the bean
            assertThat(jobs.report("us", null)).isNotNull(); // another key: runs
          }
          try (Lease held = otherInstance.acquire("eu-nightly")) {
            assertThat(jobs.count()).isZero();
            assertThat(jobs.maybe()).isEmpty();
          }
          await()
              .untilAsserted(
                  () ->
                      assertThat(
                              registry
                                  .get("lease.acquisitions")
                                  .tag("outcome", "held_by_another")
                                  .counter()
                                  .count())
                          .isEqualTo(3));
          // Once the other instance let go, the job runs again.
          assertThat(jobs.report("eu", null)).isNotNull();
        });
  }

  @Test
  void holdAtLeastKeepsTheLeaseAfterAShortRunUntilItsTimeFromTheStart() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          long start = System.nanoTime();
          jobs.quick();
          assertThatThrownBy(() -> otherInstance.acquire("quick")).isInstanceOf(LeaseHeld.class);
          await()
              .atMost(Duration.ofSeconds(10))
              .ignoreException(LeaseHeld.class)
              .until(
                  () -> {
                    otherInstance.acquire("quick").close();
                    return true;
                  });
          assertThat(Duration.ofNanos(System.nanoTime() - start))
              .isGreaterThanOrEqualTo(Duration.ofMillis(1_500));
        });
  }

  @Test
  void anAsyncMethodTakesItsLeaseOnTheThreadThatRunsIt() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          String caller = Thread.currentThread().getName();
          String ran = jobs.inBackground().get(10, TimeUnit.SECONDS);
          assertThat(ran).doesNotStartWith(caller + "/").matches(".+/token [0-9]+");
        });
  }

  @Test
  void aKeyThatEvaluatesToNothingFailsTheCall() {
    runner.run(
        context ->
            assertThatThrownBy(() -> context.getBean(Jobs.class).report("", null))
                .isInstanceOf(IllegalArgumentException.class));
  }

  @Test
  void aFencedTransactionWithoutAFenceFailsTheCallNamingTheMethodBeforeItRuns() {
    runner.run(
        context -> {
          Jobs jobs = context.getBean(Jobs.class);
          assertThat(context).doesNotHaveBean(LeaseFence.class); // a memory store
          assertThatThrownBy(jobs::fenced)
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("fenced()")
              .hasMessageContaining("needs a LeaseFence bean");
          assertThat(jobs.runs()).isZero();
        });
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAsync
  static class Application {
    @Bean
    LeaseRepository leaseRepository() {
      return STORE;
    }

    @Bean
    Jobs jobs() {
      return new Jobs();
    }
  }

  /** Jobs as an application writes them. */
  static class Jobs {
    private final AtomicInteger runs = new AtomicInteger();

    int runs() {
      return runs.get();
    }

    @Leased(key = "#{#region.isEmpty() ? '' : 'report-' + #region}")
    @Nullable Long report(String region, @Nullable FencingToken token) {
      runs.incrementAndGet();
      assertThat(token).isNotNull();
      assertThat(token.key()).isEqualTo("report-" + region);
      return token.generation();
    }

    @Leased(key = "${job.region}-nightly")
    String nightly() {
      return CurrentLease.token().key();
    }

    @Leased(key = "${job.region}-nightly")
    int count() {
      return 1;
    }

    @Leased(key = "${job.region}-nightly")
    Optional<String> maybe() {
      return Optional.of("ran");
    }

    @Leased(key = "fenced", fencedTransaction = true)
    void fenced() {
      runs.incrementAndGet();
    }

    @Leased(key = "quick", holdAtLeast = "1500ms")
    void quick() {}

    @Async
    @Leased(key = "background-#{T(java.lang.System).nanoTime()}")
    CompletableFuture<String> inBackground() {
      return CompletableFuture.completedFuture(
          Thread.currentThread().getName() + "/token " + CurrentLease.token().generation());
    }
  }
}
