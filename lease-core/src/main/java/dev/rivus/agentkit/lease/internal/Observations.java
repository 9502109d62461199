/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * When this manager first saw each held record of another holder, on its own monotonic clock. The
 * TTL runs from that moment; no timestamp written in the record is ever trusted for expiry.
 *
 * <p>Memory stays bounded by what the manager watches: an observation is forgotten once the key is
 * acquired, found not held, or left unobserved for longer than the TTL it counts towards (the
 * longer of the manager's and the record's). An acquirer that comes back later starts counting
 * again, so it waits longer, never shorter. Thread-safe.
 */
final class Observations {

  private final ConcurrentMap<String, Seen> seen = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;
  private final long sweepEveryNanos;
  private volatile long lastSweepNanos;

  Observations(LongSupplier nanoTime, Duration sweepEvery) {
    this.nanoTime = nanoTime;
    this.sweepEveryNanos = sweepEvery.toNanos();
    this.lastSweepNanos = nanoTime.getAsLong();
  }

  /**
   * Records that the held {@code snapshot} was read now, and returns how long it has been seen
   * unchanged.
   *
   * @param ttl the TTL this observation counts towards: it is kept at least that long unobserved
   */
  Duration observe(LeaseSnapshot snapshot, Duration ttl) {
    long now = nanoTime.getAsLong();
    sweepIfDue(now);
    long window = ttl.toNanos();
    Seen first =
        seen.compute(
            snapshot.key(),
            (key, previous) ->
                previous != null && previous.isSameRevisionAs(snapshot)
                    ? previous.lookedAgain(now, window)
                    : new Seen(snapshot.revision(), snapshot.generation(), now, window));
    return Duration.ofNanos(now - first.firstSeenNanos);
  }

  /** Forgets a key: this manager acquired it, or found it free. */
  void forget(String key) {
    seen.remove(key);
  }

  int size() {
    return seen.size();
  }

  private void sweepIfDue(long now) {
    if (now - lastSweepNanos < sweepEveryNanos) {
      return;
    }
    lastSweepNanos = now;
    seen.values().removeIf(entry -> now - entry.lastSeenNanos > entry.windowNanos);
  }

  private static final class Seen {
    final long revision;
    final long generation;
    final long firstSeenNanos;
    final long lastSeenNanos;
    final long windowNanos;

    Seen(long revision, long generation, long firstSeenNanos, long windowNanos) {
      this(revision, generation, firstSeenNanos, firstSeenNanos, windowNanos);
    }

    private Seen(
        long revision, long generation, long firstSeenNanos, long lastSeenNanos, long windowNanos) {
      this.revision = revision;
      this.generation = generation;
      this.firstSeenNanos = firstSeenNanos;
      this.lastSeenNanos = lastSeenNanos;
      this.windowNanos = windowNanos;
    }

    boolean isSameRevisionAs(LeaseSnapshot snapshot) {
      return revision == snapshot.revision() && generation == snapshot.generation();
    }

    Seen lookedAgain(long now, long window) {
      return new Seen(revision, generation, firstSeenNanos, now, Math.max(windowNanos, window));
    }
  }
}
