/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

/**
 * Hears what happens to the leases of one manager, for logs, metrics or health checks. Every method
 * does nothing by default: override those you need.
 *
 * <p>Events come in the order they happened, one at a time, on a thread of the manager's own
 * reserved for its listener, never on the thread that acquires, renews or expires a lease. So a
 * listener that throws or blocks never changes a lease's state and never delays a renewal, an
 * expiry or an interrupt; what it throws is logged and dropped, and while it blocks, later events
 * wait in a queue (of 10,000 tasks, a renewal round being two or three; beyond that, events are
 * dropped with one warning). An implementation is called by one thread at a time. A lease's {@code
 * acquired} comes first and its {@code lost} or {@code released} last: nothing of it is told after
 * its end but the end of fenced work that its loss cut short. Events queued when the manager is
 * closed are still told; events after that are not, and {@link LeaseManager#close()} does not wait
 * for the listener.
 *
 * <p>{@link LeaseEvent.Renewed} comes once per lease per renewal, so with many leases a listener
 * should count rather than log it.
 *
 * @see LeaseManagerBuilder#listener(LeaseListener)
 */
public interface LeaseListener {

  /** The listener that hears nothing; a manager with it makes no events at all. */
  LeaseListener NONE = new LeaseListener() {};

  /**
   * The manager acquired a lease.
   *
   * @param event the key, generation and how it was acquired
   */
  default void acquired(LeaseEvent.Acquired event) {}

  /**
   * An acquisition found the lease held by another live holder.
   *
   * @param event the holder's record and this manager's view of it
   */
  default void heldByAnother(LeaseEvent.HeldByAnother event) {}

  /**
   * A lease was renewed.
   *
   * @param event the key, generation and the round's latency
   */
  default void renewed(LeaseEvent.Renewed event) {}

  /**
   * A renewal failed; the lease is still held until its TTL runs out.
   *
   * @param event the cause and how much of the TTL is left
   */
  default void renewalFailed(LeaseEvent.RenewalFailed event) {}

  /**
   * A renewal round runs late, and its leases come near their deadline; once per round, not per
   * lease.
   *
   * @param event how many leases the round renews, how long it has run, and the least TTL left
   */
  default void renewalLate(LeaseEvent.RenewalLate event) {}

  /**
   * A held lease was lost.
   *
   * @param event the reason
   */
  default void lost(LeaseEvent.Lost event) {}

  /**
   * A held lease was released.
   *
   * @param event the key and generation released
   */
  default void released(LeaseEvent.Released event) {}

  /**
   * A renewal round took its outcomes: once per round, however many leases it renewed; a round
   * whose write failed is told too. Not told for rounds that had nothing due.
   *
   * @param round how many leases the round renewed, and how long it took
   */
  default void renewalRound(RenewalRound round) {}

  /**
   * A call of {@link Lease#runFenced(FencedWork)} ended. Unlike the events above, it may come after
   * its lease's end: work that ended because the lease was lost is told with {@link
   * FencedWorkEnded.Outcome#LOST}.
   *
   * @param ended how long the work took and how it ended
   */
  default void fencedWorkEnded(FencedWorkEnded ended) {}
}
