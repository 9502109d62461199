/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseException;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Renews every lease of one manager in rounds, and declares a lease lost once the TTL has passed
 * since the start of its last successful renewal, so that it has stopped before another process may
 * take it over.
 *
 * <p>Two kinds of work, on two kinds of thread:
 *
 * <ul>
 *   <li>The <b>tick</b>, on the timer, only reads and changes state: it expires leases whose time
 *       is up, and starts a round when a lease falls due and no round runs. It never waits for a
 *       round, so a repository call that hangs cannot keep a lease alive past its TTL.
 *   <li>The <b>round</b>, on the repository lane, renews every held lease that falls due within
 *       half a heartbeat, in one {@link LeaseRepository#saveAll} call: leases acquired at different
 *       times fall into step after one round, and the manager writes one batch per heartbeat
 *       however many leases it holds. It also checks the key locks of running fenced work. Each
 *       lease keeps its own revision and expiry: a conflict or failure on one affects that one
 *       alone.
 * </ul>
 *
 * <p>A round that runs late, one whose leases come near their deadline before it has renewed them
 * (a store too slow for their number), is told once, by a {@link LateRound} on the timer; leases
 * lost together, at one tick or in one round, are logged in one line ({@link Losses}).
 *
 * <p>Thread-safe.
 */
final class Renewer {

  private final ManagerParts parts;

  /** The manager's held leases, in key order: visited by ticks and rounds, changed by others. */
  private final Iterable<ManagedLease> held;

  /** Loses every lease of the manager at once: a round found their store gone. */
  private final Consumer<StoreLost> storeLost;

  /** Asks the key locks of the manager's running fenced work whether they are still held. */
  private final Runnable checkKeyLocks;

  private boolean roundRunning; // guarded by this
  private long dueWhileRunning = Long.MAX_VALUE; // guarded by this: leases added during a round
  private boolean closed; // guarded by this
  private LeaseScheduler.@Nullable Cancellable tick; // guarded by this
  private long tickAtNanos; // guarded by this; meaningful while tick != null
  private int lastBatchSize; // rounds never overlap (roundRunning); presizes the next batch

  /**
   * No held lease's deadline comes before this (guarded by this). Deadlines only move later, so a
   * bound once true stays true; ticks visit the leases only once it is reached.
   */
  private long earliestDeadline = Long.MAX_VALUE;

  private long deadlineWhileRunning = Long.MAX_VALUE; // guarded by this: leases added in a round
  private long additions; // guarded by this: leases added so far

  Renewer(
      ManagerParts parts,
      Iterable<ManagedLease> held,
      Consumer<StoreLost> storeLost,
      Runnable checkKeyLocks) {
    this.parts = parts;
    this.held = held;
    this.storeLost = storeLost;
    this.checkKeyLocks = checkKeyLocks;
  }

  /**
   * A lease was acquired: make sure a tick comes by the time it falls due, or, while a round runs
   * (it may hang), by the time it must expire; the round plans the next tick with it when done.
   */
  synchronized void added(ManagedLease lease) {
    earliestDeadline = Math.min(earliestDeadline, lease.deadlineNanos());
    additions++;
    if (roundRunning) {
      dueWhileRunning = Math.min(dueWhileRunning, lease.dueNanos());
      deadlineWhileRunning = Math.min(deadlineWhileRunning, lease.deadlineNanos());
      tickBy(lease.deadlineNanos());
    } else {
      tickBy(lease.dueNanos());
    }
  }

  /** No tick or round starts after this; a round already running finishes. */
  synchronized void close() {
    closed = true;
    if (tick != null) {
      tick.cancel();
      tick = null;
    }
  }

  /**
   * On the timer: expire what is due to expire, start a round if one is due. Never blocks. Visits
   * the leases only if one may have reached its deadline; otherwise the tick came for a lease
   * falling due, and the round, which visits them anyway, sees which.
   */
  private void tick() {
    long now = parts.ticker().nanoTime();
    long seenAdditions;
    synchronized (this) {
      // This tick is under way: a lease added from now on must schedule its own (see tickBy).
      tick = null;
      if (earliestDeadline - now <= 0) {
        seenAdditions = additions;
      } else {
        if (closed) {
          return;
        }
        boolean alreadyRunning = roundRunning;
        roundRunning = true;
        tickBy(earliestDeadline); // the round may hang: expiries must not wait for it
        if (alreadyRunning) {
          return;
        }
        seenAdditions = -1;
      }
    }
    if (seenAdditions < 0) {
      parts.scheduler().execute(Lane.REPOSITORY, this::round);
    } else {
      expireAndStart(now, seenAdditions);
    }
  }

  /** The tick's visit of every lease: expire, and start a round if one is due. */
  private void expireAndStart(long now, long seenAdditions) {
    long nextDeadline = Long.MAX_VALUE;
    long nextDue = Long.MAX_VALUE;
    boolean anyDue = false;
    Losses losses = new Losses(); // many leases expiring at one tick make one log line
    for (ManagedLease lease : held) {
      if (lease.signal().isLost()) { // the deadline is judged just below, against this tick's now
        continue;
      }
      long deadline = lease.deadlineNanos();
      if (deadline - now <= 0) {
        lease.lose(LeaseLost.Reason.EXPIRED, null, lease.lastFailure(), losses);
        continue;
      }
      nextDeadline = Math.min(nextDeadline, deadline);
      long due = lease.dueNanos();
      if (due - now <= 0) {
        anyDue = true;
      } else {
        nextDue = Math.min(nextDue, due);
      }
    }
    losses.tell(parts);
    boolean startRound;
    synchronized (this) {
      // Exact for the leases visited; a lease added meanwhile may not have been visited.
      earliestDeadline =
          additions == seenAdditions ? nextDeadline : Math.min(earliestDeadline, nextDeadline);
      if (closed) {
        return;
      }
      startRound = anyDue && !roundRunning;
      if (startRound) {
        roundRunning = true;
      }
      // While a round runs, only expiries need the timer; the round plans the next tick when done.
      tickBy(roundRunning ? nextDeadline : Math.min(nextDeadline, nextDue));
    }
    if (startRound) {
      parts.scheduler().execute(Lane.REPOSITORY, this::round);
    }
  }

  /**
   * On the repository lane: one batch of renewals, then the key lock checks, then the next tick,
   * planned from what this round saw. The leases come in key order (see {@link #held}), so the
   * batch does too, which spares a database a sort; each lease is visited once to build the batch
   * and once to take its outcome.
   */
  private void round() {
    Next next = new Next();
    List<ManagedLease> due = new ArrayList<>(lastBatchSize);
    boolean outcomesTaken = false;
    boolean visitedAll = false;
    LateRound late = null;
    try {
      long start = parts.ticker().nanoTime();
      long horizon = start + parts.timing().heartbeatNanos() / 2;
      Instant now = parts.wallClock().instant();
      List<LeaseWrite> writes = new ArrayList<>(lastBatchSize);
      ManagedLease atRisk = null; // the due lease with the earliest deadline
      Losses expired = new Losses(); // found past their deadline before the timer: one log line
      for (ManagedLease lease : held) {
        if (!lease.isHeld(expired)) { // past its deadline too: never renewed then
          continue;
        }
        if (lease.dueNanos() - horizon <= 0) {
          due.add(lease);
          writes.add(lease.current().renewal(now));
          if (atRisk == null || lease.deadlineNanos() - atRisk.deadlineNanos() < 0) {
            atRisk = lease;
          }
        } else {
          next.see(lease);
        }
      }
      visitedAll = true;
      expired.tell(parts);
      lastBatchSize = due.size();
      if (atRisk != null) {
        late = LateRound.watch(parts, atRisk, due.size(), start);
        renew(due, writes, start, next);
      }
      outcomesTaken = true;
      checkKeyLocks.run();
    } finally {
      if (late != null) {
        late.end();
      }
      if (!outcomesTaken) {
        due.forEach(next::see); // renewed, or failed and due again soon
      }
      synchronized (this) {
        roundRunning = false;
        // A bound on every deadline: the leases this round saw, and those added while it ran.
        long seen = Math.min(next.deadline, deadlineWhileRunning);
        earliestDeadline = visitedAll ? seen : Math.min(earliestDeadline, seen);
        long addedMeanwhile = dueWhileRunning;
        dueWhileRunning = Long.MAX_VALUE;
        deadlineWhileRunning = Long.MAX_VALUE;
        tickBy(Math.min(next.earliest(), addedMeanwhile));
      }
    }
  }

  /** Saves the batch and takes each outcome, noting each lease's next due time and deadline. */
  private void renew(List<ManagedLease> due, List<LeaseWrite> writes, long start, Next next) {
    Told told = new Told();
    try {
      renew(due, writes, start, next, told);
    } finally {
      told.tell(due.size(), Duration.ofNanos(parts.ticker().nanoTime() - start));
    }
  }

  private void renew(
      List<ManagedLease> due, List<LeaseWrite> writes, long start, Next next, Told told) {
    List<SaveOutcome> outcomes;
    try {
      outcomes = parts.repository().saveAll(writes);
    } catch (StoreLost lost) {
      storeLost.accept(lost);
      return;
    } catch (RuntimeException failure) {
      long retryAt = parts.ticker().nanoTime() + parts.timing().retryNanos();
      for (ManagedLease lease : due) {
        renewalFailed(lease, failure, retryAt, told);
        next.see(lease);
      }
      return;
    }
    told.latency = Duration.ofNanos(parts.ticker().nanoTime() - start);
    for (int i = 0; i < due.size(); i++) {
      ManagedLease lease = due.get(i);
      SaveOutcome outcome = outcomes.get(i);
      LeaseException failure = outcome.failure();
      if (failure == null) {
        lease.renewed(outcome.write().snapshot(), start);
        told.renewed(lease);
      } else if (failure instanceof RevisionConflict conflict) {
        reconcile(lease, conflict, told);
      } else {
        renewalFailed(
            lease, failure, parts.ticker().nanoTime() + parts.timing().retryNanos(), told);
      }
      next.see(lease);
    }
  }

  /** Notes a failed renewal on the lease, and how much of the TTL it leaves, for the listener. */
  private void renewalFailed(
      ManagedLease lease, RuntimeException failure, long retryAtNanos, Told told) {
    lease.renewalFailed(failure, retryAtNanos);
    if (parts.events().enabled()) {
      Duration left =
          Duration.ofNanos(Math.max(0, lease.deadlineNanos() - parts.ticker().nanoTime()));
      told.failed(new Events.FailedRenewal(lease, failure, left));
    }
  }

  /** What one round tells the listener, in two tasks at its end rather than one per lease. */
  private final class Told {
    private final List<ManagedLease> renewed = new ArrayList<>();
    private final List<Events.FailedRenewal> failed = new ArrayList<>();
    final Losses losses = new Losses();
    Duration latency = Duration.ZERO;

    void renewed(ManagedLease lease) {
      if (parts.events().enabled()) {
        renewed.add(lease);
      }
    }

    void failed(Events.FailedRenewal failure) {
      failed.add(failure);
    }

    void tell(int leases, Duration took) {
      parts.events().renewed(renewed, latency);
      parts.events().renewalsFailed(failed);
      losses.tell(parts);
      parts.events().roundEnded(leases, renewed.size(), failed.size(), took);
    }
  }

  /** The earliest due time and deadline among the leases a round saw still held. */
  private static final class Next {
    private long due = Long.MAX_VALUE;
    private long deadline = Long.MAX_VALUE;

    void see(ManagedLease lease) {
      if (!lease.signal().isLost()) { // a lease past its deadline is expired by the next tick
        due = Math.min(due, lease.dueNanos());
        deadline = Math.min(deadline, lease.deadlineNanos());
      }
    }

    long earliest() {
      return Math.min(due, deadline);
    }
  }

  /** Someone else wrote the record: adopt it if it is still ours, else the lease was taken. */
  private void reconcile(ManagedLease lease, RevisionConflict conflict, Told told) {
    Optional<LeaseSnapshot> stored;
    try {
      stored = parts.repository().load(lease.key());
    } catch (StoreLost lost) {
      storeLost.accept(lost);
      return;
    } catch (RuntimeException failure) {
      failure.addSuppressed(conflict);
      renewalFailed(lease, failure, parts.ticker().nanoTime() + parts.timing().retryNanos(), told);
      return;
    }
    if (stored.isPresent()
        && lease.isOwnRecord(stored.get())
        && stored.get().revision() < lease.revision()) {
      // Our own record, but older than one we wrote: the store lost writes (a database that
      // crashed before flushing them, a restored backup). Others may have seen the newer
      // revision; writing its number again would make them think nothing changed.
      lease.lose(
          LeaseLost.Reason.STORE_LOST,
          stored.get(),
          new StoreLost(
              "the record of lease '"
                  + lease.key()
                  + "' went back from revision "
                  + lease.revision()
                  + " to "
                  + stored.get().revision()
                  + ": the store lost writes it had confirmed (a crash before they were flushed,"
                  + " or a restored backup)",
              conflict),
          told.losses);
    } else if (stored.isPresent() && lease.isOwnRecord(stored.get())) {
      // Our own earlier write landed although the call reported a failure: carry on from it.
      lease.adopt(stored.get(), parts.ticker().nanoTime());
    } else if (stored.isEmpty() || stored.get().isFloor()) {
      lease.lose(LeaseLost.Reason.STORE_LOST, null, null, told.losses); // the record vanished
    } else {
      lease.lose(lease.lossShownBy(stored.get()), stored.get(), null, told.losses);
    }
  }

  /** Makes sure a tick comes no later than {@code atNanos}; called under this monitor. */
  private void tickBy(long atNanos) {
    if (closed || atNanos == Long.MAX_VALUE) {
      return;
    }
    if (tick != null && tickAtNanos - atNanos <= 0) {
      return; // one comes soon enough
    }
    if (tick != null) {
      tick.cancel();
    }
    tickAtNanos = atNanos;
    tick =
        parts
            .scheduler()
            .schedule(
                Duration.ofNanos(Math.max(0, atNanos - parts.ticker().nanoTime())), this::tick);
  }
}
