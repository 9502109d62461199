/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** Times every batch the manager writes: one batch is one renewal round. */
final class TimedRounds implements LeaseRepository {
  private final LeaseRepository delegate;
  private final List<Long> roundNanos = Collections.synchronizedList(new ArrayList<>());

  TimedRounds(LeaseRepository delegate) {
    this.delegate = delegate;
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
      return delegate.saveAll(writes);
    } finally {
      roundNanos.add(System.nanoTime() - start);
    }
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    return delegate.load(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return delegate.loadAll();
  }

  @Override
  public void save(LeaseWrite write) {
    delegate.save(write);
  }

  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    return delegate.lockKey(key);
  }

  @Override
  public KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
    return delegate.lockKey(key, silenceLimit);
  }
}
