/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Two instances of one application configured with different TTLs on one SQLite file: A with {@code
 * lease.ttl=10s} renews every 2.5 s, longer than B's whole TTL of 2 s. B, waiting for the key for 5
 * s, sees A's record unchanged for longer than its own TTL, yet must not take the key from A, which
 * renews: its call is skipped. Once A's run ends, B's runs.
 */
class InstancesWithDifferentTtlsTest {

  private static final List<String> RUNS = new CopyOnWriteArrayList<>();
  private static final CountDownLatch A_STARTED = new CountDownLatch(1);
  private static final CountDownLatch A_MAY_END = new CountDownLatch(1);

  /** Threads of the test's own: the common pool may have one, and a blocked run holds it. */
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @TempDir Path directory;

  @AfterEach
  void stopTheThreads() {
    threads.shutdownNow();
  }

  @Test
  void anInstanceWithAShorterTtlSkipsTheKeyWhileTheOtherRunsAndRunsItAfter() throws Exception {
    ApplicationContextRunner instance =
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
            .withUserConfiguration(Instance.class)
            .withPropertyValues("lease.sqlite.path=" + directory.resolve("leases.db"));
    instance
        .withPropertyValues("instance=a", "lease.ttl=10s")
        .run(
            a ->
                instance
                    .withPropertyValues("instance=b", "lease.ttl=2s")
                    .run(
                        b -> {
                          assertThat(a).hasSingleBean(SqliteLeaseRepository.class);
                          assertThat(a.getBean(LeaseManager.class).config().heartbeat())
                              .isGreaterThan(b.getBean(LeaseManager.class).config().ttl());
                          CompletableFuture<Boolean> aRun =
                              CompletableFuture.supplyAsync(
                                  () -> a.getBean(Job.class).run(), threads);
                          assertThat(A_STARTED.await(10, TimeUnit.SECONDS)).isTrue();

                          long start = System.nanoTime();
                          boolean bRan = b.getBean(Job.class).run();
                          Duration waited = Duration.ofNanos(System.nanoTime() - start);
                          assertThat(bRan).isFalse();
                          assertThat(RUNS).containsExactly("a");
                          // B watched A's record through at least one of A's heartbeat intervals.
                          assertThat(waited).isGreaterThan(Duration.ofMillis(2_500));

                          A_MAY_END.countDown();
                          assertThat(aRun.get(10, TimeUnit.SECONDS)).isTrue();
                          assertThat(b.getBean(Job.class).run()).isTrue();
                          assertThat(RUNS).containsExactly("a", "b");
                        }));
  }

  @Configuration(proxyBeanMethods = false)
  static class Instance {
    @Bean
    Job job(Environment environment) {
      return new Job(environment.getRequiredProperty("instance"));
    }
  }

  /** The job of one instance; A's run lasts until the test lets it end. */
  static class Job {
    private final String instance;

    Job(String instance) {
      this.instance = instance;
    }

    @Leased(key = "report", maxWait = "5s")
    boolean run() {
      RUNS.add(instance);
      if (instance.equals("a")) {
        A_STARTED.countDown();
        try {
          assertThat(A_MAY_END.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) { // the lease was lost: A's run ends, and fails
          Thread.currentThread().interrupt();
          throw new IllegalStateException("A lost its lease", e);
        }
      }
      return true;
    }
  }
}
