/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A repository whose key locks a test can make lost while they are held: through the adapter's own
 * way when it has one (a dropped connection), else by marking the wrapping key lock lost, as a
 * storage that loses locks would report it. Thread-safe.
 */
final class LosableKeyLocks extends ForwardingLeaseRepository {

  /** How an adapter makes one of its own held key locks be lost; false if it cannot. */
  @FunctionalInterface
  interface KeyLockLoser {
    boolean lose(LeaseRepository.KeyLock keyLock) throws Exception;
  }

  private final KeyLockLoser adapterWay;
  private final Map<String, Losable> held = new ConcurrentHashMap<>();

  LosableKeyLocks(LeaseRepository delegate, KeyLockLoser adapterWay) {
    super(delegate);
    this.adapterWay = adapterWay;
  }

  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    return held(key, super.lockKey(key));
  }

  @Override
  public KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
    return held(key, super.lockKey(key, silenceLimit));
  }

  private KeyLock held(String key, KeyLock taken) {
    Losable keyLock = new Losable(taken);
    held.put(key, keyLock);
    return keyLock;
  }

  /**
   * Makes the held key lock of {@code key} be lost.
   *
   * @return whether the adapter's own way was used
   */
  boolean lose(String key) throws Exception {
    Losable keyLock = held.get(key);
    if (keyLock == null) {
      throw new AssertionError("no key lock of '" + key + "' was taken");
    }
    if (adapterWay.lose(keyLock.inner)) {
      return true;
    }
    keyLock.lost.set(true);
    return false;
  }

  private static final class Losable implements KeyLock {
    final KeyLock inner;
    final AtomicBoolean lost = new AtomicBoolean();

    Losable(KeyLock inner) {
      this.inner = inner;
    }

    @Override
    public boolean isHeld() {
      return !lost.get() && inner.isHeld();
    }

    @Override
    public void close() {
      inner.close();
    }

    @Override
    public void abandon() {
      inner.abandon();
    }
  }
}
