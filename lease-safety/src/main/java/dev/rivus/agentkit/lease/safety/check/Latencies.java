/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Latency samples of one figure (a takeover after a kill, a loss to its interrupt), kept whole so
 * that a run's totals are percentiles over every phase's samples, not an average of percentiles.
 * Immutable.
 *
 * @param nanos the samples, in nanoseconds
 * @param notTaken the cases that never ended in the phase (a lease not taken over)
 */
record Latencies(List<Long> nanos, int notTaken) {

  Latencies {
    nanos = List.copyOf(nanos);
  }

  /** No samples. */
  static Latencies none() {
    return new Latencies(List.of(), 0);
  }

  /** The samples of both. */
  Latencies plus(Latencies other) {
    List<Long> all = new ArrayList<>(nanos);
    all.addAll(other.nanos);
    return new Latencies(all, notTaken + other.notTaken);
  }

  /** "n=3 p50=120 ms p95=900 ms max=900 ms (not taken over: 1)", or "n=0". */
  String summary() {
    String open = notTaken > 0 ? " (not taken over: " + notTaken + ")" : "";
    if (nanos.isEmpty()) {
      return "n=0" + open;
    }
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(null);
    return String.format(
        Locale.ROOT,
        "n=%d p50=%d ms p95=%d ms max=%d ms%s",
        sorted.size(),
        percentile(sorted, 50) / 1_000_000,
        percentile(sorted, 95) / 1_000_000,
        sorted.get(sorted.size() - 1) / 1_000_000,
        open);
  }

  private static long percentile(List<Long> sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
