/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The workers' pause after repository failures: bounded, reset by a success, cut by a stop. */
class FailureBackOffTest {

  @Test
  void doublesFromTwentyMillisecondsUpToFiveHundredAndASuccessResetsIt() {
    FailureBackOff backOff = new FailureBackOff();
    assertThat(backOff.pauseMillis()).isZero();
    List<Long> pauses = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      backOff.failed();
      pauses.add(backOff.pauseMillis());
    }
    assertThat(pauses).containsExactly(20L, 40L, 80L, 160L, 320L, 500L, 500L, 500L);

    backOff.succeeded();
    assertThat(backOff.pauseMillis()).isZero();
    backOff.failed();
    assertThat(backOff.pauseMillis()).isEqualTo(20L);
  }

  @Test
  void pausesOncePerFailure() {
    FailureBackOff backOff = new FailureBackOff();
    backOff.failed();
    long start = System.nanoTime();
    assertThat(backOff.pause(() -> false)).isTrue();
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));

    assertThat(backOff.pauseMillis()).isZero();
    backOff.failed();
    assertThat(backOff.pauseMillis()).as("the failures in a row still count").isEqualTo(40L);
  }

  @Test
  void aStopRequestCutsThePauseShort() {
    FailureBackOff backOff = new FailureBackOff();
    for (int i = 0; i < 10; i++) {
      backOff.failed();
    }
    long start = System.nanoTime();
    long[] asked = {0};
    // Stop is asked 30 ms into a 500 ms pause.
    assertThat(backOff.pause(() -> System.nanoTime() - start > 30_000_000L && ++asked[0] > 0))
        .isTrue();
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(200));
  }
}
