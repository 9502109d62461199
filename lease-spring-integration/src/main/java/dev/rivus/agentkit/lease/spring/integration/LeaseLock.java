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
import java.util.ConcurrentModificationException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.jspecify.annotations.Nullable;

/**
 * The lock of one key of a {@link LeaseLockRegistry}: while a thread holds it, that thread's lease
 * on the key excludes every other holder, here and in every process on the same store.
 *
 * <p>It keeps {@link Lock}'s contract as {@link java.util.concurrent.locks.ReentrantLock} does:
 *
 * <ul>
 *   <li>It is reentrant: the thread that holds it may lock it again, and holds it until it has
 *       unlocked it as often ({@link #holdCount()}). The lease is acquired on the first hold and
 *       released on the last unlock, so another process may acquire it at once.
 *   <li>Only the holding thread unlocks it; any other gets an {@link IllegalMonitorStateException}.
 *   <li>Threads of this JVM first exclude each other locally, then the one that wins asks the
 *       {@link LeaseManager}: {@link #lock()} waits until the lease is acquired, {@link
 *       #lockInterruptibly()} too unless interrupted, {@link #tryLock()} tries once, and {@link
 *       #tryLock(long, TimeUnit)} waits at most the time given, locally and for the lease together.
 *       A lease held elsewhere is taken as soon as it is released, or once its holder is gone or
 *       silent for the TTL.
 *   <li>{@link #newCondition()} is not supported.
 * </ul>
 *
 * <p>A lock is held only as long as its lease. If the lease is lost while the thread holds the lock
 * (it could not be renewed within the TTL, another process took it over, an operator released it,
 * its manager was closed), the thread still owns the lock locally, but another holder may have the
 * lease: {@link #token()} and a reentrant {@code lock} or {@code tryLock} then throw {@link
 * LeaseLost}, and the last {@link #unlock()} frees the lock and throws {@link
 * ConcurrentModificationException}, as Spring's {@code JdbcLockRegistry} does, with the {@link
 * LeaseLost} as its cause. Work that must not run past a loss checks {@link #lease()}{@code
 * .isHeld()}, or runs as fenced work of {@link #lease()}, and hands {@link #token()} to the
 * resources it writes so that they refuse a stale holder.
 *
 * <p>Failures of the store while acquiring ({@link LeaseRepositoryFailure}) are thrown by every
 * lock method, the lock then not held; a release the store refuses is logged by the manager, and
 * the lease expires after its TTL.
 *
 * <p>Thread-safe. Every lock a registry returns for one key is the same lock, whichever of them a
 * thread uses.
 */
public final class LeaseLock implements Lock {

  /** How long one wait for the lease lasts before {@link #lock()} waits again. */
  private static final Duration WAIT_SLICE = Duration.ofMinutes(1);

  private final LeaseLockRegistry registry;
  private final String key;

  LeaseLock(LeaseLockRegistry registry, String key) {
    this.registry = registry;
    this.key = key;
  }

  /**
   * Returns the lease key this lock acquires.
   *
   * @return the lease key
   */
  public String key() {
    return key;
  }

  /**
   * Acquires the lock, waiting as long as it takes, in this JVM and for the lease. An interrupt
   * does not end the wait; it is kept, set again when this returns.
   *
   * @throws LeaseLost if the calling thread already holds the lock and its lease was lost
   * @throws LeaseRepositoryFailure if the store failed; the lock is not held
   * @throws IllegalStateException if the manager is closed
   */
  @Override
  public void lock() {
    try {
      acquire(Mode.UNINTERRUPTIBLE, 0);
    } catch (InterruptedException e) {
      // Mode.UNINTERRUPTIBLE keeps interrupts for the end and never throws this.
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while locking '" + key + "'", e);
    }
  }

  /**
   * Acquires the lock, waiting as long as it takes unless the thread is interrupted.
   *
   * @throws InterruptedException if the thread was interrupted before or while waiting; the lock is
   *     not held
   * @throws LeaseLost if the calling thread already holds the lock and its lease was lost
   * @throws LeaseRepositoryFailure if the store failed; the lock is not held
   * @throws IllegalStateException if the manager is closed
   */
  @Override
  public void lockInterruptibly() throws InterruptedException {
    acquire(Mode.INTERRUPTIBLE, 0);
  }

  /**
   * Acquires the lock if no other thread of this JVM holds it and the lease can be acquired at
   * once, with one try at the store.
   *
   * @return {@code true} if the calling thread now holds the lock
   * @throws LeaseLost if the calling thread already holds the lock and its lease was lost
   * @throws LeaseRepositoryFailure if the store failed; the lock is not held
   * @throws IllegalStateException if the manager is closed
   */
  @Override
  public boolean tryLock() {
    try {
      return acquire(Mode.ONCE, 0);
    } catch (InterruptedException e) {
      // Mode.ONCE waits for nothing and never throws this.
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to lock '" + key + "'", e);
    }
  }

  /**
   * Acquires the lock if it can within {@code time}: the wait for other threads of this JVM and the
   * wait for the lease share it. Zero or less means one try, as {@link #tryLock()}.
   *
   * @param time the longest wait
   * @param unit the unit of {@code time}
   * @return {@code true} if the calling thread now holds the lock, {@code false} if the time passed
   * @throws InterruptedException if the thread was interrupted before or while waiting; the lock is
   *     not held
   * @throws LeaseLost if the calling thread already holds the lock and its lease was lost
   * @throws LeaseRepositoryFailure if the store failed; the lock is not held
   * @throws IllegalStateException if the manager is closed
   * @throws NullPointerException if {@code unit} is null
   */
  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    Objects.requireNonNull(unit, "unit");
    return acquire(Mode.TIMED, Math.max(0, unit.toNanos(time)));
  }

  /**
   * Releases one hold of the lock; the last one also releases the lease (its tombstone is written
   * before this returns), so that another holder may acquire it at once.
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   * @throws ConcurrentModificationException on the last unlock, if the lease was lost while the
   *     lock was held (its cause is the {@link LeaseLost} that says why); the lock is free anyway
   */
  @Override
  public void unlock() {
    KeyState state = heldState();
    if (state.local.getHoldCount() > 1) {
      state.local.unlock();
      return;
    }
    Lease lease = Objects.requireNonNull(state.lease, "the holder's lease");
    state.lease = null;
    boolean held = lease.isHeld();
    try {
      lease.close();
    } finally {
      state.local.unlock();
      registry.leave(key, state);
    }
    if (!held) {
      LeaseLost lost = lease.lost().toCompletableFuture().join();
      throw (ConcurrentModificationException)
          new ConcurrentModificationException(
                  "lock '"
                      + key
                      + "' was lost while held ("
                      + lost.reason()
                      + "): another holder may have changed what it protected; "
                      + lost.getMessage())
              .initCause(lost);
    }
  }

  /**
   * Not supported, as by Spring's own distributed locks: a condition would need the lease given up
   * and taken again behind the waiter's back.
   *
   * @return never
   * @throws UnsupportedOperationException always
   */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException(
        "lock '" + key + "' has no conditions: a lease lock cannot be given up inside a wait");
  }

  /**
   * Returns the lease the calling thread holds this lock by: pass {@link Lease#generation()} (or
   * {@link #token()}) to the resources the lock protects, or run work fenced under it. Valid while
   * the thread holds the lock; do not close it, {@link #unlock()} does.
   *
   * @return the lease; {@link Lease#isHeld()} tells whether it is still held
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   */
  public Lease lease() {
    return Objects.requireNonNull(heldState().lease, "the holder's lease");
  }

  /**
   * Returns the fencing token of the calling thread's hold: its lease's generation, higher than
   * that of every earlier holder of the key. Read it just before each write it guards: once the
   * lease is lost, this throws rather than hand out a token another holder has outranked.
   *
   * @return the generation, at least 1
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   * @throws LeaseLost if the lease was lost while the lock was held
   */
  public long token() {
    Lease lease = lease();
    if (!lease.isHeld()) {
      throw lease.lost().toCompletableFuture().join().rethrown();
    }
    return lease.generation();
  }

  /**
   * Tells whether the calling thread holds this lock (locally: see {@link #lease()} for whether the
   * lease is still held).
   *
   * @return {@code true} if it does
   */
  public boolean isHeldByCurrentThread() {
    KeyState state = registry.current(key);
    return state != null && state.local.isHeldByCurrentThread();
  }

  /**
   * Returns how often the calling thread holds this lock: the locks it took less its unlocks.
   *
   * @return zero if it does not hold it
   */
  public int holdCount() {
    KeyState state = registry.current(key);
    return state == null ? 0 : state.local.getHoldCount();
  }

  @Override
  public String toString() {
    KeyState state = registry.current(key);
    return "LeaseLock[" + key + ", " + (state == null ? "unused" : state.local.toString()) + "]";
  }

  private KeyState heldState() {
    KeyState state = registry.current(key);
    if (state == null || !state.local.isHeldByCurrentThread()) {
      throw new IllegalMonitorStateException(
          "lock '" + key + "' is not held by " + Thread.currentThread().getName());
    }
    return state;
  }

  private enum Mode {
    UNINTERRUPTIBLE,
    INTERRUPTIBLE,
    ONCE,
    TIMED
  }

  /** Takes the local lock, then on a first hold the lease; on failure leaves no trace. */
  private boolean acquire(Mode mode, long timeoutNanos) throws InterruptedException {
    long start = System.nanoTime();
    KeyState state = registry.enter(key);
    boolean locked = false;
    boolean keepLock = false;
    boolean keepUser = false; // the first hold stays a user of the state until the last unlock
    try {
      locked = lockLocally(state, mode, timeoutNanos);
      if (!locked) {
        return false;
      }
      if (state.local.getHoldCount() > 1) {
        Lease lease = Objects.requireNonNull(state.lease, "the holder's lease");
        if (!lease.isHeld()) {
          throw lease.lost().toCompletableFuture().join().rethrown();
        }
        keepLock = true;
        return true;
      }
      Lease lease = acquireLease(mode, timeoutNanos - (System.nanoTime() - start));
      if (lease == null) {
        return false;
      }
      state.lease = lease;
      keepLock = true;
      keepUser = true;
      return true;
    } finally {
      if (locked && !keepLock) {
        state.local.unlock();
      }
      if (!keepUser) {
        registry.leave(key, state);
      }
    }
  }

  private static boolean lockLocally(KeyState state, Mode mode, long timeoutNanos)
      throws InterruptedException {
    switch (mode) {
      case UNINTERRUPTIBLE:
        state.local.lock();
        return true;
      case INTERRUPTIBLE:
        state.local.lockInterruptibly();
        return true;
      case ONCE:
        return state.local.tryLock();
      case TIMED:
      default:
        return state.local.tryLock(timeoutNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** The lease, or null if the wait ended first; the local lock is held. */
  private @Nullable Lease acquireLease(Mode mode, long remainingNanos) throws InterruptedException {
    LeaseManager manager = registry.manager();
    switch (mode) {
      case ONCE:
        try {
          return manager.acquire(key);
        } catch (LeaseHeld held) {
          return null;
        }
      case TIMED:
        try {
          return manager.acquire(key, Duration.ofNanos(Math.max(0, remainingNanos)));
        } catch (LeaseHeld held) {
          return null;
        }
      case INTERRUPTIBLE:
        while (true) {
          try {
            return manager.acquire(key, WAIT_SLICE);
          } catch (LeaseHeld held) {
            // still held elsewhere: wait again
          }
        }
      case UNINTERRUPTIBLE:
      default:
        return acquireUninterruptibly(manager);
    }
  }

  private Lease acquireUninterruptibly(LeaseManager manager) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return manager.acquire(key, WAIT_SLICE);
        } catch (LeaseHeld held) {
          // still held elsewhere: wait again
        } catch (InterruptedException e) {
          interrupted = true; // Lock.lock() waits on; the interrupt is set again at the end
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
