/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.util.Arrays;

/** A growable array of nanoseconds; used by one thread at a time. */
final class Latencies {
  private long[] values = new long[1 << 14];
  private int size;

  void add(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  void addAll(Latencies other) {
    for (int i = 0; i < other.size; i++) {
      add(other.values[i]);
    }
  }

  int size() {
    return size;
  }

  double mean() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return size == 0 ? Double.NaN : sum / (double) size;
  }

  double percentile(int percentile) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int index = (int) Math.ceil(percentile / 100.0 * size) - 1;
    return sorted[Math.max(0, index)];
  }
}
