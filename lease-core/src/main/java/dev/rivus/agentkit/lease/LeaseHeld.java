/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;
import java.util.Locale;

/**
 * Another live holder owns the lease: {@link LeaseManager#acquire} failed fast, or its wait ended.
 * The facts say who holds it, with which generation, and how long this observer has seen the record
 * unchanged (the lease may be taken over when that reaches the TTL: the longer of the observer's
 * own and the one the holder promised in the record).
 */
public final class LeaseHeld extends LeaseException {

  private static final long serialVersionUID = 1L;

  private final LeaseSnapshot current;
  private final Duration observedUnchanged;
  private final Duration ttl;
  private final Liveness holderLiveness;

  /**
   * Creates the failure.
   *
   * @param current the record as this observer last read it
   * @param observedUnchanged how long this observer has seen that revision unchanged
   * @param ttl the TTL after which this observer would take the lease over: the longer of its own
   *     and the record's
   * @param holderLiveness what this observer could tell about the holder's process
   */
  public LeaseHeld(
      LeaseSnapshot current, Duration observedUnchanged, Duration ttl, Liveness holderLiveness) {
    super(message(current, observedUnchanged, ttl), null);
    this.current = current;
    this.observedUnchanged = observedUnchanged;
    this.ttl = ttl;
    this.holderLiveness = holderLiveness;
  }

  private static String message(LeaseSnapshot current, Duration observed, Duration ttl) {
    String head =
        String.format(
            Locale.ROOT,
            "lease '%s' is held by %s pid %d (generation %d); observed unchanged for %.1f s",
            current.key(),
            current.holder().process().host(),
            current.holder().process().pid(),
            current.generation(),
            observed.toMillis() / 1000.0);
    if (ttl.compareTo(LeaseConfig.MAX_DURATION) >= 0) {
      return head
          + " of an unknown TTL (the record was written by a version that did not record it): it is"
          + " taken over once its holder is seen gone, or after a forced release";
    }
    return head + String.format(Locale.ROOT, " of a %.1f s TTL", ttl.toMillis() / 1000.0);
  }

  /**
   * Returns the key of the lease.
   *
   * @return the key
   */
  public String key() {
    return current.key();
  }

  /**
   * Returns the current holder.
   *
   * @return the holder named by the record
   */
  public HolderIdentity holder() {
    return current.holder();
  }

  /**
   * Returns the holder's generation (its fencing token).
   *
   * @return the generation
   */
  public long generation() {
    return current.generation();
  }

  /**
   * Returns the record as this observer last read it.
   *
   * @return the snapshot
   */
  public LeaseSnapshot current() {
    return current;
  }

  /**
   * Returns how long this observer has seen the record unchanged, on its own monotonic clock.
   *
   * @return the observed duration, less than the TTL
   */
  public Duration observedUnchanged() {
    return observedUnchanged;
  }

  /**
   * Returns the TTL after which this observer would take the lease over: the longer of its own TTL
   * and the one the holder promised in the record.
   *
   * @return the TTL
   */
  public Duration ttl() {
    return ttl;
  }

  /**
   * Returns what the observer could tell about the holder's process.
   *
   * @return {@link Liveness#ALIVE} or {@link Liveness#UNKNOWN} (a gone holder is taken over, not
   *     reported)
   */
  public Liveness holderLiveness() {
    return holderLiveness;
  }
}
