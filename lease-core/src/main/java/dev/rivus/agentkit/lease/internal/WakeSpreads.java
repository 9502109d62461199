/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long this manager's waiters for a key wait, at random, before they answer a wake-up: zero
 * while nobody else wants the key, so that a lone waiter takes it the moment it is released; wider
 * each time a waiter was woken and another waiter took the key first. A release wakes every waiter
 * of the key; with the answers of n waiters spread over s, the first comes after about s / (n + 1)
 * and takes the key, and most others find it taken with one read, instead of all reading and trying
 * to write at once. Kept per key across calls, so that a waiter that comes back for the key (a job
 * in a loop) answers no sooner than those still waiting, and forgotten after {@link #QUIET} without
 * a lost hand-off.
 *
 * <p>Bounded: beyond {@link #LIMIT} keys the oldest is forgotten. Thread-safe.
 */
final class WakeSpreads {

  static final int LIMIT = 4_096;

  /** The narrowest spread once a hand-off was lost. */
  static final Duration NARROWEST = Duration.ofMillis(5);

  /** The widest: a woken waiter answers within it. */
  static final Duration WIDEST = Duration.ofMillis(50);

  /** A spread is forgotten this long after the last hand-off lost. */
  static final Duration QUIET = Duration.ofSeconds(1);

  private final Ticker ticker;

  private final Map<String, Spread> spreads =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Spread> eldest) {
          return size() > LIMIT;
        }
      };

  private record Spread(long nanos, long lostAt) {}

  WakeSpreads(Ticker ticker) {
    this.ticker = ticker;
  }

  /** A random wait, up to the key's spread, before a woken waiter reads; zero if none. */
  Duration beforeAnswer(String key) {
    long spread;
    synchronized (this) {
      Spread current = spreads.get(key);
      if (current == null) {
        return Duration.ZERO;
      }
      if (ticker.nanoTime() - current.lostAt() > QUIET.toNanos()) {
        spreads.remove(key);
        return Duration.ZERO;
      }
      spread = current.nanos();
    }
    return Duration.ofNanos(ThreadLocalRandom.current().nextLong(spread + 1));
  }

  /** A waiter of the key was woken and found it taken by another: the spread doubles. */
  synchronized void lost(String key) {
    Spread current = spreads.remove(key); // put again, as the newest
    long wider =
        current == null ? NARROWEST.toNanos() : Math.min(current.nanos() * 2, WIDEST.toNanos());
    spreads.put(key, new Spread(Math.max(wider, NARROWEST.toNanos()), ticker.nanoTime()));
  }
}
