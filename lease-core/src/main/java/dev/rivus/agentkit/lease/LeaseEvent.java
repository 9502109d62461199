/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;

/**
 * What happened to a lease, as told to a {@link LeaseListener}. Every event names the manager (by
 * {@link LeaseManager#name()}), the key and a generation: the one acquired, held, renewed, lost or
 * released, or for {@link HeldByAnother} the other holder's. Events are immutable values.
 */
public sealed interface LeaseEvent {

  /**
   * Returns the name of the manager the event happened in.
   *
   * @return the manager's name
   */
  String manager();

  /**
   * Returns the key of the lease.
   *
   * @return the key
   */
  String key();

  /**
   * Returns the generation the event is about.
   *
   * @return the generation (fencing token)
   */
  long generation();

  /** How an acquisition got its lease. */
  enum Acquisition {
    /** The key had no record: its first acquisition. */
    NEW,
    /**
     * The record was not held: released by its last holder or by an operator's forced release, or
     * only the floor that pruning leaves was there.
     */
    AFTER_RELEASE,
    /** The holder's process was judged gone ({@link Liveness#GONE}): taken over at once. */
    DEAD_HOLDER,
    /** The record stayed unchanged for the TTL on this manager's ticker: taken over. */
    TTL_TAKEOVER
  }

  /**
   * The manager acquired a lease.
   *
   * @param manager the manager's name
   * @param key the key
   * @param generation the generation acquired
   * @param how how it was acquired
   */
  record Acquired(String manager, String key, long generation, Acquisition how)
      implements LeaseEvent {}

  /**
   * An acquisition found the lease held by a holder it may not take it from yet: another process,
   * or another handle of this same manager ({@link LeaseHeld} was thrown, or a waiting acquisition
   * will look again, and tells this again at each look).
   *
   * @param manager the manager's name
   * @param key the key
   * @param generation the other holder's generation
   * @param holder the record as read: who holds it, since when, with which TTL
   * @param observedUnchanged how long this manager has seen that record unchanged
   * @param ttl the TTL after which this manager would take it over
   * @param holderLiveness what this manager's judge said of the holder's process
   */
  record HeldByAnother(
      String manager,
      String key,
      long generation,
      LeaseSnapshot holder,
      Duration observedUnchanged,
      Duration ttl,
      Liveness holderLiveness)
      implements LeaseEvent {}

  /**
   * A renewal round renewed a lease.
   *
   * @param manager the manager's name
   * @param key the key
   * @param generation the generation held
   * @param latency how long the round's write took
   */
  record Renewed(String manager, String key, long generation, Duration latency)
      implements LeaseEvent {}

  /**
   * A renewal failed; the lease is still held, and the next round tries again soon.
   *
   * @param manager the manager's name
   * @param key the key
   * @param generation the generation held
   * @param cause why it failed
   * @param ttlLeft how long the lease stays held without a successful renewal
   */
  record RenewalFailed(
      String manager, String key, long generation, RuntimeException cause, Duration ttlLeft)
      implements LeaseEvent {}

  /**
   * A renewal round runs late: it has not renewed its leases by the time the first of them has only
   * half the margin left that a round on time leaves it (half of the TTL, less the holder's safety
   * margin and a heartbeat), so they come near their deadline: a store too slow for the number of
   * leases held, or one that hangs. Told once per round, while the round still runs and before any
   * of its leases is lost to the delay, about the lease with the least TTL left; the round's other
   * leases are not told one by one.
   *
   * @param manager the manager's name
   * @param key the key of the round's lease with the least TTL left
   * @param generation that lease's generation
   * @param leases how many leases the round renews
   * @param running how long the round has run
   * @param ttlLeft how long that lease stays held if the round does not finish
   */
  record RenewalLate(
      String manager, String key, long generation, int leases, Duration running, Duration ttlLeft)
      implements LeaseEvent {}

  /**
   * A lease was lost while held: taken over, expired, its store or its key lock lost.
   *
   * @param manager the manager's name
   * @param key the key
   * @param generation the generation that was held
   * @param reason why it was lost
   * @param loss the failure that running work and {@link Lease#lost()} see
   */
  record Lost(String manager, String key, long generation, LeaseLost.Reason reason, LeaseLost loss)
      implements LeaseEvent {}

  /**
   * A held lease was closed. Its record is released at once, or, if the repository fails then, left
   * to expire after its TTL.
   *
   * @param manager the manager's name
   * @param key the key
   * @param generation the generation released
   */
  record Released(String manager, String key, long generation) implements LeaseEvent {}
}
