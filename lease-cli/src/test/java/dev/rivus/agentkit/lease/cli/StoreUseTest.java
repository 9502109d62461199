/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The busy wait of a held lease fits its heartbeat and TTL, so a renewal can be retried. */
class StoreUseTest {

  @Test
  void theDefaultTimingKeepsSqlitesDefaultBusyWait() {
    assertThat(StoreUse.holding(Duration.ofSeconds(60), Duration.ofSeconds(15)).busyWait())
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aShortHeartbeatGetsAtMostHalfOfIt() {
    assertThat(StoreUse.holding(Duration.ofSeconds(2), Duration.ofMillis(500)).busyWait())
        .isEqualTo(Duration.ofMillis(250));
    assertThat(StoreUse.holding(Duration.ofSeconds(1), Duration.ofMillis(10)).busyWait())
        .isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void aShortTtlGetsAtMostAQuarterOfIt() {
    assertThat(StoreUse.holding(Duration.ofSeconds(4), Duration.ofSeconds(2)).busyWait())
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void readOnlyCommandsNeverCreateAndOthersMay() {
    assertThat(StoreUse.readingExisting().create()).isFalse();
    assertThat(StoreUse.creating().create()).isTrue();
    assertThat(StoreUse.holding(Duration.ofSeconds(60), Duration.ofSeconds(15)).create()).isTrue();
  }
}
