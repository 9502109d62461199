/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot3.health;

import dev.rivus.agentkit.lease.spring.boot.actuate.LeaseHealth;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseActuatorAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The {@code lease} health on Spring Boot 3, where the health types are Boot 3's (on Boot 4 that
 * class is gone and this configuration does nothing). {@code management.health.lease.enabled=false}
 * turns it off.
 */
@AutoConfiguration(after = LeaseActuatorAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(LeaseHealth.class)
@ConditionalOnProperty(prefix = "management.health.lease", name = "enabled", matchIfMissing = true)
public class LeaseBoot3HealthAutoConfiguration {

  /** Made by Spring Boot. */
  public LeaseBoot3HealthAutoConfiguration() {}

  /**
   * The {@code lease} health.
   *
   * @param health the check
   * @return the indicator
   */
  @Bean
  @ConditionalOnMissingBean
  public LeaseBoot3HealthIndicator leaseHealthIndicator(LeaseHealth health) {
    return new LeaseBoot3HealthIndicator(health);
  }
}
