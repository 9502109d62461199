/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Lock} on one lease key, obtained from {@link LeaseLockRegistry#obtain}: held by one
 * thread at a time, in this process and, through the lease, in every process that shares the
 * repository.
 *
 * <p>It keeps {@link Lock}'s contract as a {@link ReentrantLock} does: the holding thread may lock
 * again (each lock needs its unlock; {@link #holdCount()} counts them), only it may unlock, {@link
 * #lock()} waits until it holds the lock and is not interrupted, {@link #lockInterruptibly()} and
 * {@link #tryLock(long, TimeUnit)} are. Threads of this process wait for each other on a local lock
 * first, and only its holder acquires the lease, so they queue without touching the repository; a
 * waiter for a lease held elsewhere polls the repository as {@link LeaseManager#acquire(String,
 * Duration)} does, and takes the lease over once its holder has been silent for the TTL. The first
 * lock acquires the lease; the last unlock releases it at once, so a waiter anywhere may take it
 * without waiting for the TTL.
 *
 * <p>While the lock is held the manager renews the lease. The lease may still be lost (taken over
 * after a stall longer than the TTL, released by an operator, its store gone, its manager closed):
 * then {@link #token()} throws {@link LeaseLost}, another holder may already have the lease, and
 * the final {@link #unlock()} throws {@link LeaseLost} too, after freeing the lock, so that work
 * done under a lost lock is never taken for work done under a held one. Before each write that must
 * not overlap another holder's, check {@link #token()}, or better pass it to a resource that
 * refuses tokens smaller than the highest it has seen.
 *
 * <p>Thread-safe; {@link #unlock()} and {@link #token()} are for the holding thread.
 */
public final class LeaseLock implements Lock {

  /** How long one acquisition call waits; {@link #lock()} calls again until it holds the lease. */
  private static final Duration WAIT_SLICE = Duration.ofMinutes(1);

  private final LeaseManager manager;
  private final String key;
  private final ReentrantLock local = new ReentrantLock();

  /** The lease of the holding thread; read and written only by it, under {@link #local}. */
  private @Nullable Lease lease;

  private volatile long lastUsedNanos = System.nanoTime();

  LeaseLock(LeaseManager manager, String key) {
    this.manager = manager;
    this.key = key;
  }

  /**
   * Returns the lease key of this lock.
   *
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * Waits until the current thread holds the lock. An interrupt does not end the wait; it is kept
   * for the caller, set again when this returns.
   *
   * @throws LeaseRepositoryFailure if the repository failed in a way the manager does not retry
   *     (the lock is then not held)
   * @throws IllegalStateException if the manager is closed
   */
  @Override
  public void lock() {
    local.lock();
    if (local.getHoldCount() > 1) {
      touch();
      return;
    }
    boolean acquired = false;
    boolean interrupted = false;
    try {
      while (!acquired) {
        try {
          acquired = acquireLease(WAIT_SLICE);
        } catch (InterruptedException e) {
          interrupted = true; // lock() is not interruptible; the flag is restored below
        }
      }
    } finally {
      settle(acquired);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Waits until the current thread holds the lock, or is interrupted.
   *
   * @throws InterruptedException if the thread was interrupted before or while waiting (the lock is
   *     then not held, unless it was held already)
   * @throws LeaseRepositoryFailure if the repository failed in a way the manager does not retry
   * @throws IllegalStateException if the manager is closed
   */
  @Override
  public void lockInterruptibly() throws InterruptedException {
    local.lockInterruptibly();
    if (local.getHoldCount() > 1) {
      touch();
      return;
    }
    boolean acquired = false;
    try {
      while (!acquired) {
        acquired = acquireLease(WAIT_SLICE);
      }
    } finally {
      settle(acquired);
    }
  }

  /**
   * Takes the lock if no thread of this process holds it and the lease is free, with one look at
   * the repository and no wait.
   *
   * @return whether the current thread now holds the lock
   * @throws LeaseRepositoryFailure if the repository failed
   * @throws IllegalStateException if the manager is closed
   */
  @Override
  public boolean tryLock() {
    if (!local.tryLock()) {
      return false;
    }
    if (local.getHoldCount() > 1) {
      touch();
      return true;
    }
    boolean acquired = false;
    try {
      lease = manager.acquire(key);
      acquired = true;
      return true;
    } catch (LeaseHeld held) {
      return false;
    } finally {
      settle(acquired);
    }
  }

  /**
   * Waits at most {@code time} for the lock: first for the threads of this process that hold or
   * wait for it, then, in what remains, for the lease.
   *
   * @param time the longest wait; zero or negative means one try
   * @param unit the unit of {@code time}
   * @return whether the current thread now holds the lock
   * @throws InterruptedException if the thread was interrupted before or while waiting
   * @throws LeaseRepositoryFailure if the repository failed in a way the manager does not retry
   * @throws IllegalStateException if the manager is closed
   * @throws NullPointerException if {@code unit} is null
   */
  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    long start = System.nanoTime();
    long budget = Math.max(0, unit.toNanos(time));
    if (!local.tryLock(budget, TimeUnit.NANOSECONDS)) {
      return false;
    }
    if (local.getHoldCount() > 1) {
      touch();
      return true;
    }
    boolean acquired = false;
    try {
      long remaining = Math.max(0, budget - (System.nanoTime() - start));
      acquired = acquireLease(Duration.ofNanos(remaining));
      return acquired;
    } finally {
      settle(acquired);
    }
  }

  /**
   * Releases one hold of the current thread; the last one releases the lease at once (the
   * repository's tombstone is written before this returns) and frees the lock for other threads.
   *
   * @throws IllegalMonitorStateException if the current thread does not hold the lock
   * @throws LeaseLost if this was the last hold and the lease had been lost while it was held; the
   *     lock is free all the same
   */
  @Override
  public void unlock() {
    Lease held = requireHolder("unlock");
    if (local.getHoldCount() > 1) {
      local.unlock();
      touch();
      return;
    }
    lease = null;
    try {
      boolean heldToTheEnd = held.isHeld();
      held.close();
      LeaseLost ended = held.lost().toCompletableFuture().join();
      if (!heldToTheEnd || ended.reason() != LeaseLost.Reason.RELEASED) {
        throw ended.rethrown();
      }
    } finally {
      local.unlock();
      touch();
    }
  }

  /**
   * Returns the fencing token of the current thread's lease: its generation, higher than that of
   * every earlier holder of the key. Pass it to a resource that refuses smaller tokens than the
   * highest it has seen, so a holder that lost its lease unaware is refused there.
   *
   * @return the generation, at least 1
   * @throws IllegalMonitorStateException if the current thread does not hold the lock
   * @throws LeaseLost if the lease has been lost while the lock was held
   */
  public long token() {
    Lease held = requireHolder("read the token of");
    if (!held.isHeld()) {
      throw held.lost().toCompletableFuture().join().rethrown();
    }
    return held.generation();
  }

  /**
   * Returns how many holds the current thread has on this lock.
   *
   * @return the number of locks not yet unlocked by the current thread; 0 if it does not hold it
   */
  public int holdCount() {
    return local.getHoldCount();
  }

  /**
   * Tells whether the current thread holds this lock (whether or not its lease is still held).
   *
   * @return whether {@link #holdCount()} is positive
   */
  public boolean isHeldByCurrentThread() {
    return local.isHeldByCurrentThread();
  }

  /**
   * Not supported: a condition would need a wait that keeps the lease across processes.
   *
   * @return never
   * @throws UnsupportedOperationException always
   */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException(
        "LeaseLock '" + key + "' has no conditions: waiting on one would span processes");
  }

  @Override
  public String toString() {
    return "LeaseLock[key=" + key + ", " + (local.isLocked() ? "locked" : "unlocked") + "]";
  }

  void touch() {
    lastUsedNanos = System.nanoTime();
  }

  /** Whether no thread holds this lock and it has not been used for {@code ageNanos}. */
  boolean idleSince(long nowNanos, long ageNanos) {
    return !local.isLocked() && nowNanos - lastUsedNanos >= ageNanos;
  }

  /** Acquires the lease for the thread that holds {@link #local}; false if it is still held. */
  private boolean acquireLease(Duration maxWait) throws InterruptedException {
    try {
      lease = manager.acquire(key, maxWait);
      return true;
    } catch (LeaseHeld held) {
      return false;
    }
  }

  /** After a first lock: keeps the local lock if the lease was acquired, frees it otherwise. */
  private void settle(boolean acquired) {
    if (!acquired) {
      local.unlock();
    }
    touch();
  }

  private Lease requireHolder(String action) {
    Lease held = local.isHeldByCurrentThread() ? lease : null;
    if (held == null) {
      throw new IllegalMonitorStateException(
          "thread '"
              + Thread.currentThread().getName()
              + "' cannot "
              + action
              + " LeaseLock '"
              + key
              + "': it does not hold it");
    }
    return held;
  }
}
