/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One fair, non-reentrant lock per key, within one JVM. A key's lock exists only while some thread
 * holds or waits for it, so memory does not grow with the number of keys ever used. A held lock may
 * be released from any thread.
 *
 * <p>Thread-safe.
 *
 * @param <K> the key type
 */
public final class KeyedLocks<K> {

  private final ConcurrentMap<K, Slot> slots = new ConcurrentHashMap<>();

  /** Creates an empty set of locks. */
  public KeyedLocks() {}

  /**
   * Waits until the calling thread holds the key's lock.
   *
   * @param key the key
   * @return the held lock; close it to release
   * @throws InterruptedException if interrupted while waiting (the lock is then not held)
   */
  public Held lock(K key) throws InterruptedException {
    Slot slot = enter(key);
    try {
      slot.permit.acquire();
    } catch (InterruptedException e) {
      leave(key);
      throw e;
    }
    return new Held(this, key, slot);
  }

  /**
   * Waits at most {@code timeout} for the key's lock.
   *
   * @param key the key
   * @param timeout the longest wait
   * @param unit the unit of {@code timeout}
   * @return the held lock, or {@code null} if the wait ended without it
   * @throws InterruptedException if interrupted while waiting (the lock is then not held)
   */
  public @org.jspecify.annotations.Nullable Held tryLock(K key, long timeout, TimeUnit unit)
      throws InterruptedException {
    Slot slot = enter(key);
    boolean acquired = false;
    try {
      acquired = slot.permit.tryAcquire(timeout, unit);
    } finally {
      if (!acquired) {
        leave(key);
      }
    }
    return acquired ? new Held(this, key, slot) : null;
  }

  /**
   * Returns how many keys have a lock that is held or waited for.
   *
   * @return the number of live locks
   */
  public int size() {
    return slots.size();
  }

  private Slot enter(K key) {
    return slots.compute(
        key,
        (k, slot) -> {
          Slot live = slot == null ? new Slot() : slot;
          live.users++;
          return live;
        });
  }

  private void leave(K key) {
    slots.computeIfPresent(key, (k, live) -> --live.users == 0 ? null : live);
  }

  private static final class Slot {
    final Semaphore permit = new Semaphore(1, true);
    int users; // guarded by the map's per-key compute
  }

  /** A held per-key lock. Closing it releases the lock; closing it again does nothing. */
  public static final class Held implements AutoCloseable {
    private final KeyedLocks<?> owner;
    private final Object key;
    private final Slot slot;
    private boolean released;

    private <K> Held(KeyedLocks<K> owner, K key, Slot slot) {
      this.owner = owner;
      this.key = key;
      this.slot = slot;
    }

    /**
     * Tells whether this lock is still held.
     *
     * @return {@code false} once released
     */
    public synchronized boolean isHeld() {
      return !released;
    }

    /** Releases the lock. */
    @Override
    public void close() {
      synchronized (this) {
        if (released) {
          return;
        }
        released = true;
      }
      slot.permit.release();
      release(owner, key);
    }

    @SuppressWarnings("unchecked")
    private static <K> void release(KeyedLocks<K> owner, Object key) {
      owner.leave((K) key);
    }
  }
}
