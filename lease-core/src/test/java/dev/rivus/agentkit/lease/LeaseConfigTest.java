package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseConfigTest {

  @Test
  void acceptsHeartbeatOfExactlyHalfTheTtl() {
    LeaseConfig config = LeaseConfig.of(Duration.ofSeconds(10), Duration.ofSeconds(5));

    assertThat(config.ttl()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.heartbeat()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void rejectsHeartbeatSlowerThanHalfTheTtlNamingBothValues() {
    assertThatThrownBy(() -> LeaseConfig.of(Duration.ofSeconds(10), Duration.ofMillis(5001)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageContaining("heartbeat PT5.001S")
        .hasMessageContaining("ttl PT10S")
        .satisfies(e -> assertThat(((LeaseConfigInvalid) e).setting()).isEqualTo("heartbeat"));
  }

  @Test
  void rejectsZeroNegativeAndMissingDurations() {
    assertThatThrownBy(() -> LeaseConfig.of(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("ttl must be positive, was PT0S");
    assertThatThrownBy(() -> LeaseConfig.of(Duration.ofSeconds(10), Duration.ofSeconds(-1)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("heartbeat must be positive, was PT-1S");
    assertThatThrownBy(() -> LeaseConfig.of(null, Duration.ofSeconds(1)))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("ttl must not be null");
    assertThatThrownBy(() -> LeaseConfig.of(Duration.ofSeconds(1), null))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("heartbeat must not be null");
  }

  @Test
  void defaultsAreValid() {
    LeaseConfig defaults = LeaseConfig.defaults();

    assertThat(defaults.heartbeat().multipliedBy(2)).isLessThanOrEqualTo(defaults.ttl());
  }
}
