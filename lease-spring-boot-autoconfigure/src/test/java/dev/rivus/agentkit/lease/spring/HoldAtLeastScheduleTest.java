/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Two instances whose schedules are 0.6 s apart (as clocks that differ would put them) run a job
 * every 2 s: with {@code holdAtLeast} of 1.5 s each slot runs once in all, not once per instance.
 */
class HoldAtLeastScheduleTest {

  private static final MemoryLeaseRepository STORE = new MemoryLeaseRepository();
  private static final List<String> RUNS = new CopyOnWriteArrayList<>();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
          .withUserConfiguration(Instance.class)
          .withPropertyValues("lease.ttl=5s");

  @Test
  void twoInstancesSixHundredMillisecondsApartRunEachSlotOnce() {
    runner
        .withPropertyValues("instance=a", "offset=600")
        .run(
            a ->
                runner
                    .withPropertyValues("instance=b", "offset=1200")
                    .run(
                        b -> {
                          // Slots at 0.6, 2.6, 4.6 s for a and 1.2, 3.2, 5.2 s for b.
                          await().atMost(Duration.ofSeconds(20)).until(() -> RUNS.size() >= 3);
                          stopScheduling(a.getSourceApplicationContext());
                          stopScheduling(b.getSourceApplicationContext());
                        }));
    assertThat(RUNS).hasSize(3).containsOnly("a");
  }

  /** Closes the instance's scheduler, so that no slot starts while the test looks. */
  private static void stopScheduling(ConfigurableApplicationContext context) {
    context.close();
  }

  @Configuration(proxyBeanMethods = false)
  @EnableScheduling
  static class Instance {
    @Bean
    LeaseRepository leaseRepository() {
      return STORE;
    }

    @Bean
    Job job(org.springframework.core.env.Environment environment) {
      return new Job(environment.getRequiredProperty("instance"));
    }
  }

  /** The job of one instance, every 2 s. */
  static class Job {
    private final String instance;

    Job(String instance) {
      this.instance = instance;
    }

    @Scheduled(fixedRate = 2_000, initialDelayString = "${offset}")
    @Leased(key = "slot", holdAtLeast = "1500ms")
    void run() {
      RUNS.add(instance);
    }
  }
}
