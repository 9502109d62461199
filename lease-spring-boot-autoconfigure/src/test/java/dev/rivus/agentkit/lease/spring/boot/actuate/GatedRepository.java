/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.actuate;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** A memory store that can fail its reads, or hang its writes until let go. */
final class GatedRepository extends ForwardingLeaseRepository {

  final AtomicBoolean failing = new AtomicBoolean();
  private volatile CountDownLatch gate = new CountDownLatch(0);

  GatedRepository() {
    super(new MemoryLeaseRepository());
  }

  CountDownLatch hang() {
    CountDownLatch closed = new CountDownLatch(1);
    gate = closed;
    return closed;
  }

  private void pass() {
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new LeaseRepositoryFailure(null, "gate not opened", null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseRepositoryFailure(null, "interrupted at the gate", e);
    }
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    if (failing.get()) {
      throw new LeaseRepositoryFailure(key, "store unreachable", null);
    }
    return super.load(key);
  }

  @Override
  public void save(LeaseWrite write) {
    pass();
    super.save(write);
  }

  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    pass();
    return super.saveAll(writes);
  }
}
