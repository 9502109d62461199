/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spread of a manager's answers to wake-ups, on fake time: none until a hand-off of the key was
 * lost, then from 5 ms doubling to 50 ms, per key, forgotten after a quiet second.
 */
class WakeSpreadsTest {

  private final FakePlatform platform = Samples.platformOf(1);
  private final WakeSpreads spreads = new WakeSpreads(platform);

  @Test
  void aWaiterThatNeverLostAnswersAtOnce() {
    assertThat(spreads.beforeAnswer("k")).isZero();
  }

  @Test
  void eachLostHandOffDoublesTheSpreadUpToTheWidest() {
    spreads.lost("k");
    assertThat(widestOf(200)).isLessThanOrEqualTo(WakeSpreads.NARROWEST);
    for (int i = 0; i < 10; i++) {
      spreads.lost("k");
    }
    Duration widest = widestOf(200);
    assertThat(widest).isLessThanOrEqualTo(WakeSpreads.WIDEST);
    // 200 draws from [0, 50 ms]: all below 40 ms with a chance of 0.8^200.
    assertThat(widest).isGreaterThan(WakeSpreads.WIDEST.multipliedBy(4).dividedBy(5));
  }

  @Test
  void theSpreadIsForgottenAfterAQuietSecondAndKeptBeforeIt() {
    spreads.lost("k");
    spreads.lost("k");
    platform.advance(WakeSpreads.QUIET);
    assertThat(widestOf(200)).isPositive().isLessThanOrEqualTo(Duration.ofMillis(10));
    platform.advance(Duration.ofMillis(1));
    assertThat(spreads.beforeAnswer("k")).isZero();
  }

  @Test
  void eachKeyHasItsOwn() {
    spreads.lost("a");
    assertThat(spreads.beforeAnswer("b")).isZero();
  }

  private Duration widestOf(int draws) {
    List<Duration> drawn = new ArrayList<>();
    for (int i = 0; i < draws; i++) {
      drawn.add(spreads.beforeAnswer("k"));
    }
    return Collections.max(drawn);
  }
}
