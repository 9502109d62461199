/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The tombstones this manager wrote itself, most recent first to stay, so that acquiring a key it
 * released skips reading the record: the acquisition is judged from the tombstone and written on
 * the condition that the record is still at the tombstone's revision. Nothing is trusted beyond
 * that condition: if anyone wrote the key since, or the store was replaced, the write is a {@link
 * dev.rivus.agentkit.lease.RevisionConflict} (every repository also refuses an acquisition that
 * does not raise the stored generation), and the acquisition reads the record and judges again, as
 * it always does after a lost race. A tombstone is taken, never used twice.
 *
 * <p>Bounded: beyond {@link #LIMIT} keys the oldest is forgotten, which costs its next acquisition
 * one read. Thread-safe.
 */
final class OwnTombstones {

  static final int LIMIT = 4_096;

  private final Ticker ticker;

  private final Map<String, Written> tombstones =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
          return size() > LIMIT;
        }
      };

  /** A tombstone, and when it was noted, by the manager's ticker. */
  private record Written(LeaseSnapshot tombstone, long nanos) {}

  OwnTombstones(Ticker ticker) {
    this.ticker = ticker;
  }

  /** Notes a tombstone this manager saved. */
  synchronized void written(LeaseSnapshot tombstone) {
    tombstones.remove(tombstone.key()); // so that it counts as the newest
    tombstones.put(tombstone.key(), new Written(tombstone, ticker.nanoTime()));
  }

  /** Takes the key's tombstone, if this manager wrote one and has not used or forgotten it. */
  synchronized Optional<LeaseSnapshot> take(String key) {
    Written written = tombstones.remove(key);
    return written == null ? Optional.empty() : Optional.of(written.tombstone());
  }

  /** Whether this manager released the key, not since acquired it, at most {@code window} ago. */
  synchronized boolean releasedWithin(String key, Duration window) {
    Written written = tombstones.get(key);
    return written != null && ticker.nanoTime() - written.nanos() <= window.toNanos();
  }

  /** Forgets every tombstone: the store they were written to is gone. */
  synchronized void clear() {
    tombstones.clear();
  }

  synchronized int size() {
    return tombstones.size();
  }
}
