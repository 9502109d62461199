/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The totals' latencies are percentiles over every phase's samples. */
class LatenciesTest {

  private static final long MS = 1_000_000;

  @Test
  void phasesMergeTheirSamplesNotTheirPercentiles() {
    Latencies file = new Latencies(List.of(100 * MS, 200 * MS), 1);
    Latencies sqlite = new Latencies(List.of(300 * MS, 400 * MS, 5000 * MS), 0);

    Latencies total = Latencies.none().plus(file).plus(sqlite);

    assertThat(total.summary())
        .isEqualTo("n=5 p50=300 ms p95=5000 ms max=5000 ms (not taken over: 1)");
    assertThat(Latencies.none().summary()).isEqualTo("n=0");
    assertThat(new Latencies(List.of(), 2).summary()).isEqualTo("n=0 (not taken over: 2)");
  }
}
