/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * {@code @Leased} methods on virtual threads: called on one, and run by Spring Boot's scheduler on
 * virtual threads ({@code spring.threads.virtual.enabled=true}). Java 21 and later; the module is
 * compiled for Java 17, so virtual threads are reached by reflection.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadsTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LeaseAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
          .withPropertyValues("lease.ttl=5s");

  @Test
  void aMethodCalledOnAVirtualThreadRunsWithItsTokenAndASecondCallMeanwhileIsSkipped()
      throws Exception {
    Job job = new Job();
    ExecutorService virtualThreads = virtualThreadPerTask();
    try {
      runner
          .withUserConfiguration(Store.class)
          .withBean(Job.class, () -> job)
          .run(
              context -> {
                Job proxied = context.getBean(Job.class);
                Future<@Nullable Long> first = virtualThreads.submit(proxied::run);
                assertThat(job.started.await(10, TimeUnit.SECONDS)).isTrue();
                Future<@Nullable Long> second = virtualThreads.submit(proxied::run);
                assertThat(second.get(10, TimeUnit.SECONDS)).isNull(); // skipped
                job.mayEnd.countDown();
                assertThat(first.get(10, TimeUnit.SECONDS)).isNotNull().isPositive();
                assertThat(job.runs.get()).isEqualTo(1);
                assertThat(job.ranVirtual).isTrue();
              });
    } finally {
      virtualThreads.shutdownNow();
    }
  }

  @Test
  void aScheduledMethodOnBootsVirtualThreadSchedulerRunsWithItsTokenAndACallMeanwhileIsSkipped()
      throws Exception {
    Job job = new Job();
    ExecutorService virtualThreads = virtualThreadPerTask();
    try {
      runner
          .withUserConfiguration(Store.class, Scheduling.class)
          .withBean(Job.class, () -> job)
          .withPropertyValues("spring.threads.virtual.enabled=true")
          .run(
              context -> {
                Job proxied = context.getBean(Job.class);
                assertThat(job.started.await(10, TimeUnit.SECONDS)).isTrue(); // the scheduled run
                Future<@Nullable Long> meanwhile = virtualThreads.submit(proxied::run);
                assertThat(meanwhile.get(10, TimeUnit.SECONDS)).isNull(); // skipped
                job.mayEnd.countDown();
                assertThat(job.ended.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(job.runs.get()).isEqualTo(1);
                assertThat(job.ranVirtual).isTrue();
                assertThat(job.token).isPositive();
              });
    } finally {
      virtualThreads.shutdownNow();
    }
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()}, of Java 21. */
  private static ExecutorService virtualThreadPerTask() throws ReflectiveOperationException {
    return (ExecutorService)
        Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
  }

  private static boolean isVirtual(Thread thread) {
    try {
      return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Store {
    @Bean
    LeaseRepository leaseRepository() {
      return new MemoryLeaseRepository();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableScheduling
  static class Scheduling {
    @Bean
    Ticker ticker(Job job) {
      return new Ticker(job);
    }
  }

  /**
   * Runs the job once, at the start, as Boot's scheduler does fixed-rate tasks: on a new thread.
   */
  static class Ticker {
    private final Job job;

    Ticker(Job job) {
      this.job = job;
    }

    @Scheduled(fixedRate = 3_600_000)
    @Leased(key = "virtual")
    void tick() {
      job.body();
    }
  }

  /** A job whose run lasts until the test lets it end, and says where it ran. */
  static class Job {
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch mayEnd = new CountDownLatch(1);
    final CountDownLatch ended = new CountDownLatch(1);
    volatile boolean ranVirtual;
    volatile long token;

    @Leased(key = "virtual")
    @Nullable Long run() {
      return body();
    }

    long body() {
      runs.incrementAndGet();
      ranVirtual = isVirtual(Thread.currentThread());
      token = CurrentLease.token().generation();
      started.countDown();
      try {
        assertThat(mayEnd.await(30, TimeUnit.SECONDS)).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("the job's lease was lost", e);
      } finally {
        ended.countDown();
      }
      return token;
    }
  }
}
