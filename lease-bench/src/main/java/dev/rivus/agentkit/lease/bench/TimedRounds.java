/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Times every batch the manager writes: one batch is one renewal round. */
final class TimedRounds extends ForwardingLeaseRepository {
  private final List<Long> roundNanos = Collections.synchronizedList(new ArrayList<>());

  TimedRounds(LeaseRepository delegate) {
    super(delegate);
  }

  void reset() {
    roundNanos.clear();
  }

  int rounds() {
    return roundNanos.size();
  }

  double percentileMillis(int percentile) {
    List<Long> sorted;
    synchronized (roundNanos) {
      sorted = new ArrayList<>(roundNanos);
    }
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    Collections.sort(sorted);
    int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index)) / 1e6;
  }

  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    long start = System.nanoTime();
    try {
      return delegate().saveAll(writes);
    } finally {
      roundNanos.add(System.nanoTime() - start);
    }
  }
}
