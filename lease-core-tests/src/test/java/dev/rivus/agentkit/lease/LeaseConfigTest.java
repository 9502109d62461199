/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseConfigTest {

  @Test
  void acceptsHeartbeatOfExactlyHalfTheTtl() {
    LeaseConfig config = new LeaseConfig(Duration.ofSeconds(10), Duration.ofSeconds(5));

    assertThat(config.ttl()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.heartbeat()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void rejectsHeartbeatSlowerThanHalfTheTtlNamingBothValues() {
    assertThatThrownBy(() -> new LeaseConfig(Duration.ofSeconds(10), Duration.ofMillis(5001)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageContaining("heartbeat PT5.001S")
        .hasMessageContaining("ttl PT10S")
        .satisfies(e -> assertThat(((LeaseConfigInvalid) e).setting()).isEqualTo("heartbeat"));
  }

  @Test
  void rejectsZeroAndNegativeDurations() {
    assertThatThrownBy(() -> new LeaseConfig(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageStartingWith("ttl must be at least PT1S, was PT0S");
    assertThatThrownBy(() -> new LeaseConfig(Duration.ofSeconds(10), Duration.ofSeconds(-1)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageStartingWith("heartbeat must be at least PT0.01S, was PT-1S");
  }

  @Test
  void rejectsAMissingDurationAsTheJdkDoesNamingTheParameter() {
    assertThatThrownBy(() -> new LeaseConfig(null, Duration.ofSeconds(1)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("ttl");
    assertThatThrownBy(() -> new LeaseConfig(Duration.ofSeconds(1), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("heartbeat");
  }

  @Test
  void rejectsATtlBelowTheFloorThatTheSchedulerAndRepositoriesCanHonour() {
    assertThatThrownBy(() -> new LeaseConfig(Duration.ofNanos(2), Duration.ofNanos(1)))
        .isInstanceOfSatisfying(
            LeaseConfigInvalid.class, e -> assertThat(e.setting()).isEqualTo("ttl"))
        .hasMessageStartingWith("ttl must be at least PT1S, was PT0.000000002S")
        .hasMessageContaining("too little time to stop");
    assertThatThrownBy(() -> new LeaseConfig(Duration.ofMillis(999), Duration.ofMillis(100)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageStartingWith("ttl must be at least PT1S, was PT0.999S");
    assertThatThrownBy(() -> new LeaseConfig(Duration.ofSeconds(1), Duration.ofMillis(9)))
        .isInstanceOfSatisfying(
            LeaseConfigInvalid.class, e -> assertThat(e.setting()).isEqualTo("heartbeat"))
        .hasMessageStartingWith("heartbeat must be at least PT0.01S, was PT0.009S");

    LeaseConfig shortest = new LeaseConfig(LeaseConfig.MIN_TTL, LeaseConfig.MIN_HEARTBEAT);
    assertThat(shortest.ttl()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void defaultsAreValid() {
    LeaseConfig defaults = LeaseConfig.defaults();

    assertThat(defaults.heartbeat().multipliedBy(2)).isLessThanOrEqualTo(defaults.ttl());
  }
}
