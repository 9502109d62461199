/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.time.Duration;

/**
 * How a command uses its lease store: whether it may create it, and how long one repository call
 * may wait for a database that another process holds locked.
 *
 * @param create {@code false} for the commands that only read ({@code status}, {@code list}): a
 *     mistyped path must fail, not leave an empty store that reports every lease absent
 * @param busyWait the busy wait of one SQLite call
 * @param holding whether the command holds a lease ({@code lease run}): it renews on one thread
 *     while another uses the store, and takes a key lock
 */
record StoreUse(boolean create, Duration busyWait, boolean holding) {

  /** The busy wait of the commands that hold no lease: SQLite's default. */
  static final Duration DEFAULT_BUSY_WAIT = Duration.ofSeconds(5);

  /** A command that writes and may create the store. */
  static StoreUse creating() {
    return new StoreUse(true, DEFAULT_BUSY_WAIT, false);
  }

  /** A command that only reads an existing store. */
  static StoreUse readingExisting() {
    return new StoreUse(false, DEFAULT_BUSY_WAIT, false);
  }

  /**
   * A command that holds a lease: the busy wait fits its heartbeat, so that a renewal that met a
   * locked database is retried well within the TTL (at most half a heartbeat, a quarter of the TTL,
   * and the default).
   */
  static StoreUse holding(Duration ttl, Duration heartbeat) {
    Duration wait = DEFAULT_BUSY_WAIT;
    wait = min(wait, heartbeat.dividedBy(2));
    wait = min(wait, ttl.dividedBy(4));
    return new StoreUse(true, wait, true);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
