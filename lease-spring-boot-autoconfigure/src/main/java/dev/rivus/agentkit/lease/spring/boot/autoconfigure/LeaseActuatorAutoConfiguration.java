/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.actuate.HeldLeases;
import dev.rivus.agentkit.lease.spring.boot.actuate.LeaseHealth;
import dev.rivus.agentkit.lease.spring.boot.actuate.LeaseHealthIndicator;
import dev.rivus.agentkit.lease.spring.boot.actuate.LeasesEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With Spring Boot's actuator present: the {@code leases} endpoint ({@link LeasesEndpoint}) and, on
 * Spring Boot 4, the {@code lease} health ({@link LeaseHealthIndicator}; on Spring Boot 3,
 * lease-spring-boot3-health adds it), both fed by a {@link HeldLeases} that every lease manager of
 * the application tells. {@code management.health.lease.enabled=false} turns the health off.
 */
@AutoConfiguration(after = LeaseAutoConfiguration.class)
@ConditionalOnClass(
    name = {
      "org.springframework.boot.actuate.endpoint.annotation.Endpoint",
      "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"
    })
@ConditionalOnBean(LeaseRepository.class)
public class LeaseActuatorAutoConfiguration {

  /** Made by Spring Boot. */
  public LeaseActuatorAutoConfiguration() {}

  /**
   * What the application's managers hold, a listener of each.
   *
   * @return the tracker
   */
  @Bean
  @ConditionalOnMissingBean
  public HeldLeases leaseHeldLeases() {
    return new HeldLeases();
  }

  /**
   * The health of the application's leases, whichever Spring Boot reports it.
   *
   * @param repository the store
   * @param leases the tracker
   * @return the check
   */
  @Bean
  @ConditionalOnMissingBean
  public LeaseHealth leaseHealth(LeaseRepository repository, HeldLeases leases) {
    return new LeaseHealth(repository, leases);
  }

  /**
   * The {@code leases} endpoint.
   *
   * @param leases the tracker
   * @param repository the store
   * @return the endpoint
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint(endpoint = LeasesEndpoint.class)
  public LeasesEndpoint leasesEndpoint(HeldLeases leases, LeaseRepository repository) {
    return new LeasesEndpoint(leases, repository);
  }

  /** The health indicator of Spring Boot 4, whose health types moved to spring-boot-health. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  @ConditionalOnProperty(
      prefix = "management.health.lease",
      name = "enabled",
      matchIfMissing = true)
  static class Boot4Health {

    /**
     * The {@code lease} health.
     *
     * @param health the check
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean
    LeaseHealthIndicator leaseHealthIndicator(LeaseHealth health) {
      return new LeaseHealthIndicator(health);
    }
  }
}
