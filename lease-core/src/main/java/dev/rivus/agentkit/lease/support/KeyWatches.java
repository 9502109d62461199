/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import dev.rivus.agentkit.lease.LeaseRepository.KeyWatch;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The open {@link KeyWatch}es of one repository, by a name of their key that the adapter chooses
 * (the key itself, or the hash its store's notifications carry): {@link #open} one, then {@link
 * #wake} the watches of a key when its release is seen, or {@link #wakeAll} when releases may have
 * been missed (a notification channel lost, a change the store cannot tell by key). A wake-up
 * before the awaiting thread awaits is kept until it does, as {@link KeyWatch} promises. Waking
 * only signals: it never blocks on I/O, so a store's listening thread or a save may call it.
 *
 * <p>Thread-safe.
 */
public final class KeyWatches {

  private final ConcurrentMap<String, Set<Watch>> byKey = new ConcurrentHashMap<>();

  /** Creates a registry with no watch open. */
  public KeyWatches() {}

  /**
   * Opens a watch of a key; it is woken by {@link #wake} of that name and by {@link #wakeAll} until
   * it is closed.
   *
   * @param name the key's name, as {@link #wake} will be given it
   * @return the open watch
   */
  public KeyWatch open(String name) {
    Watch watch = new Watch(name);
    byKey.compute(
        name,
        (n, watches) -> {
          Set<Watch> set = watches != null ? watches : ConcurrentHashMap.newKeySet();
          set.add(watch);
          return set;
        });
    return watch;
  }

  /**
   * Wakes every open watch of a key.
   *
   * @param name the key's name, as given to {@link #open}
   */
  public void wake(String name) {
    Set<Watch> watches = byKey.get(name);
    if (watches != null) {
      watches.forEach(Watch::wake);
    }
  }

  /** Wakes every open watch: releases may have been missed, so every waiter looks again. */
  public void wakeAll() {
    byKey.values().forEach(watches -> watches.forEach(Watch::wake));
  }

  /**
   * Tells whether any watch is open, for a store that listens only while someone waits.
   *
   * @return {@code true} if no watch is open
   */
  public boolean isEmpty() {
    return byKey.isEmpty();
  }

  private void remove(Watch watch) {
    byKey.computeIfPresent(
        watch.name,
        (n, watches) -> {
          watches.remove(watch);
          return watches.isEmpty() ? null : watches;
        });
  }

  /** One open watch: a wake-up flag, kept until an await takes it. */
  private final class Watch implements KeyWatch {
    final String name;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private boolean pending; // guarded by lock
    private boolean closed; // guarded by lock

    Watch(String name) {
      this.name = name;
    }

    void wake() {
      lock.lock();
      try {
        pending = true;
        woken.signalAll();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public boolean awaitRelease(Duration timeout) throws InterruptedException {
      long nanos = timeout.isNegative() ? 0 : Durations.saturatedNanos(timeout);
      lock.lockInterruptibly();
      try {
        while (!pending && !closed && nanos > 0) {
          nanos = woken.awaitNanos(nanos);
        }
        boolean released = pending || closed;
        pending = false;
        return released;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void close() {
      remove(this);
      lock.lock();
      try {
        closed = true;
        woken.signalAll();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public String toString() {
      return "KeyWatch[" + name + "]";
    }
  }
}
