/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Wraps a repository and, when told to, fails or hangs every load and save like an unreachable
 * store.
 */
final class FlakyRepository extends ForwardingLeaseRepository {

  private volatile boolean failing;
  private volatile CountDownLatch hang = new CountDownLatch(0);
  private volatile CountDownLatch hangBatches = new CountDownLatch(0);

  FlakyRepository(LeaseRepository delegate) {
    super(delegate);
  }

  void startFailing() {
    failing = true;
  }

  void recover() {
    failing = false;
  }

  /** From now on, calls block until {@link #unhang()}. */
  void hang() {
    hang = new CountDownLatch(1);
  }

  void unhang() {
    hang.countDown();
  }

  /** From now on, batches (renewal rounds) block until {@link #unhangBatches()}; saves go on. */
  void hangBatches() {
    hangBatches = new CountDownLatch(1);
  }

  void unhangBatches() {
    hangBatches.countDown();
  }

  private void check(String key) {
    awaitUninterruptibly(hang);
    if (failing) {
      throw new LeaseRepositoryFailure(key, "repository unreachable (test)", null);
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    check(key);
    return super.load(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    check("*");
    return super.loadAll();
  }

  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    awaitUninterruptibly(hangBatches);
    return saveEach(writes); // through save(), which fails or hangs when told to
  }

  @Override
  public void save(LeaseWrite write) {
    check(write.key());
    super.save(write);
  }
}
