/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * One instance of a scheduled application, for {@link HoldAtLeastTwoJvmsTest}: a context on the
 * SQLite store at {@code args[0]}, whose two jobs run every 2 s from the instant {@code args[2]}
 * (epoch milliseconds), as a scheduler whose clock is that far off would start them. Each job's run
 * prints {@code run <job> <instance> <epoch ms>}.
 */
public final class ScheduledInstanceMain {

  private ScheduledInstanceMain() {}

  /**
   * Starts the instance; it runs until killed.
   *
   * @param args the SQLite path, the instance's name, the first slot's instant in epoch ms
   */
  public static void main(String[] args) {
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(Instance.class)
            .web(WebApplicationType.NONE)
            .properties("lease.sqlite.path=" + args[0], "lease.ttl=5s", "instance=" + args[1])
            .run();
    ThreadPoolTaskScheduler scheduler = context.getBean(ThreadPoolTaskScheduler.class);
    Jobs jobs = context.getBean(Jobs.class);
    Instant first = Instant.ofEpochMilli(Long.parseLong(args[2]));
    scheduler.scheduleAtFixedRate(jobs::held, first, Duration.ofSeconds(2));
    scheduler.scheduleAtFixedRate(jobs::bare, first, Duration.ofSeconds(2));
    System.out.println("scheduled " + args[1]);
  }

  /** The application: the lease auto-configuration, a scheduler and the jobs. */
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(LeaseAutoConfiguration.class)
  static class Instance {

    @Bean
    ThreadPoolTaskScheduler scheduler() {
      ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
      scheduler.setPoolSize(2);
      return scheduler;
    }

    @Bean
    Jobs jobs(org.springframework.core.env.Environment environment) {
      return new Jobs(environment.getRequiredProperty("instance"));
    }
  }

  /** The same work under two leases: kept 1.5 s at least, and released at once. */
  public static class Jobs {
    private final String instance;

    Jobs(String instance) {
      this.instance = instance;
    }

    /** Held at least 1.5 s from its start. */
    @Leased(key = "slot-held", holdAtLeast = "1500ms")
    public void held() {
      System.out.println("run held " + instance + " " + System.currentTimeMillis());
    }

    /** Released when it returns. */
    @Leased(key = "slot-bare")
    public void bare() {
      System.out.println("run bare " + instance + " " + System.currentTimeMillis());
    }
  }
}
