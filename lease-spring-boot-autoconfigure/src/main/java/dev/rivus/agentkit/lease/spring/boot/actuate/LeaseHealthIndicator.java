/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.actuate;

import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code lease} health of a Spring Boot 4 application (see {@link LeaseHealth}): up, or down
 * with what was found. Thread-safe.
 */
public final class LeaseHealthIndicator implements HealthIndicator {

  private final LeaseHealth health;

  /**
   * Reports {@code health}.
   *
   * @param health the check
   */
  public LeaseHealthIndicator(LeaseHealth health) {
    this.health = Objects.requireNonNull(health, "health");
  }

  @Override
  public Health health() {
    LeaseHealth.Check check = health.check();
    return (check.up() ? Health.up() : Health.down()).withDetails(check.details()).build();
  }
}
