/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FencedWork;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWork;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * A held lease: its record as last written, when its last successful renewal started, and its
 * one-way loss signal. It has no timer of its own: the manager's {@link Renewer} renews and expires
 * it with every other lease of the manager.
 */
final class ManagedLease implements Lease {

  /** By key, then by handle: a manager may hold a lost handle and a new one of the same key. */
  static final Comparator<ManagedLease> KEY_ORDER =
      Comparator.comparing(ManagedLease::key).thenComparingLong(lease -> lease.handle);

  private final ManagerParts parts;

  /** The manager holding this lease, as far as the lease calls back into it. */
  private final LeaseOwner owner;

  private final long handle;
  private final LossSignal signal;
  private final FencedRunner fenced;

  /**
   * The record as acquired, and the revision last written: a renewal changes nothing else that is
   * ever read back (its time is not). A primitive rather than each renewal's snapshot, so that
   * renewing does not make every long-lived lease point at a young object (measured: with 100,000
   * leases, the young collections that followed cost about 5 % of a core).
   */
  private final LeaseSnapshot acquired;

  private volatile long revision;

  // Renewal state: written by the acquiring thread before the lease is shared, then by the
  // renewer's round only; read by the timer.
  private volatile long renewedAtNanos;
  private volatile long dueNanos;
  private volatile @Nullable RuntimeException lastFailure;

  private boolean closed; // guarded by this

  /** Whether the listener was told this lease's end; written on the listener lane only. */
  private volatile boolean endTold;

  ManagedLease(
      ManagerParts parts,
      LeaseOwner owner,
      long handle,
      LeaseSnapshot acquired,
      long acquiredAtNanos) {
    this.parts = parts;
    this.owner = owner;
    this.handle = handle;
    this.acquired = acquired;
    this.revision = acquired.revision();
    this.signal = new LossSignal(parts.scheduler());
    this.fenced = new FencedRunner(this, parts, owner);
    this.renewedAtNanos = acquiredAtNanos;
    this.dueNanos = acquiredAtNanos + parts.timing().heartbeatNanos();
  }

  @Override
  public String key() {
    return acquired.key();
  }

  @Override
  public long generation() {
    return acquired.generation();
  }

  @Override
  public HolderIdentity holder() {
    return acquired.holder();
  }

  @Override
  public boolean isHeld() {
    return isHeld(null);
  }

  /** As {@link #isHeld()}; an expiry it declares is logged with {@code losses}, if given. */
  boolean isHeld(@Nullable Losses losses) {
    if (signal.isLost()) {
      return false;
    }
    if (parts.ticker().nanoTime() - deadlineNanos() >= 0) {
      // Past its deadline the lease is lost, whether or not the timer has run yet: after a pause
      // (SIGSTOP, a frozen VM, a long GC) the thread that asks may wake before the timer does.
      lose(LeaseLost.Reason.EXPIRED, null, lastFailure, losses);
      return false;
    }
    return true;
  }

  @Override
  public CompletionStage<LeaseLost> lost() {
    return signal.stage();
  }

  @Override
  public <T extends @Nullable Object, X extends Exception> T runFenced(FencedWork<T, X> work)
      throws X, InterruptedException {
    return fenced.run(work, true);
  }

  @Override
  public <T extends @Nullable Object, X extends Exception> T runFencedUninterruptibly(
      FencedWork<T, X> work) throws X, InterruptedException {
    return fenced.run(work, false);
  }

  @Override
  public <T extends @Nullable Object, X extends Exception> T runUntilLost(LeaseWork<T, X> work)
      throws X, InterruptedException {
    return fenced.runUnfenced(work);
  }

  @Override
  public void close() {
    Closing closing = markClosed();
    if (closing != Closing.NOTHING_TO_RELEASE) {
      owner.release(this, closing == Closing.RELEASE_HELD);
    }
    owner.forget(this);
  }

  /** What closing a handle leaves to do. */
  enum Closing {
    /** Closed before, or lost to another holder or with its store: no record of ours is left. */
    NOTHING_TO_RELEASE,
    /** It was held: release its record. */
    RELEASE_HELD,
    /** It expired or lost its key lock: its record may still be ours; release it if so. */
    RELEASE_IF_STILL_OURS
  }

  /**
   * Marks the handle closed and declares the release (interrupting fenced work still running); says
   * whether its record should now be released. Only the first call does anything.
   */
  Closing markClosed() {
    synchronized (this) {
      if (closed) {
        return Closing.NOTHING_TO_RELEASE;
      }
      closed = true;
    }
    if (lose(LeaseLost.Reason.RELEASED, null, null)) {
      return Closing.RELEASE_HELD;
    }
    return recordMayStillBeOurs() ? Closing.RELEASE_IF_STILL_OURS : Closing.NOTHING_TO_RELEASE;
  }

  /**
   * After an expiry or a lost key lock, the record may still name this handle: release it, so
   * others need not wait out the TTL. After a takeover or a lost store it names someone else or
   * nothing.
   */
  private boolean recordMayStillBeOurs() {
    LeaseLost.Reason reason = signal.reason();
    return reason == LeaseLost.Reason.EXPIRED || reason == LeaseLost.Reason.KEY_LOCK_LOST;
  }

  /**
   * Declares the loss once; returns false if the lease was already lost. Only changes state (safe
   * on the timer): the log line, the interrupts and the {@code lost()} stage go to their lanes.
   */
  boolean lose(LeaseLost.Reason reason, @Nullable LeaseSnapshot seen, @Nullable Throwable cause) {
    return lose(reason, seen, cause, null);
  }

  /**
   * As {@link #lose(LeaseLost.Reason, LeaseSnapshot, Throwable)}, but a loss is logged with the
   * others of {@code losses} when it is told, in one line, rather than at once.
   */
  boolean lose(
      LeaseLost.Reason reason,
      @Nullable LeaseSnapshot seen,
      @Nullable Throwable cause,
      @Nullable Losses losses) {
    boolean first = signal.declare(new LossSignal.Loss(key(), generation(), reason, seen, cause));
    if (first) {
      parts.events().ended(this, reason);
    }
    if (first && reason != LeaseLost.Reason.RELEASED) {
      if (losses == null) {
        parts.warnings().lost(List.of(this), parts.timing().config().heartbeat());
      } else {
        losses.add(this);
      }
      owner.forget(this);
    }
    return first;
  }

  /** Whether {@code stored} is this handle's own record (same generation, same handle, held). */
  boolean isOwnRecord(LeaseSnapshot stored) {
    LeaseSnapshot mine = acquired;
    return stored.isHeld()
        && stored.generation() == mine.generation()
        && stored.holder().equals(mine.holder());
  }

  /**
   * Whether {@code stored} is a tombstone of this handle's own record that it did not write (it is
   * still held here): an operator's forced release.
   */
  boolean isReleasedByAnother(LeaseSnapshot stored) {
    LeaseSnapshot mine = acquired;
    return stored.state() == LeaseState.RELEASED
        && stored.generation() == mine.generation()
        && stored.holder().equals(mine.holder());
  }

  /** Why this handle lost a record that is no longer its own, as {@code stored} shows. */
  LeaseLost.Reason lossShownBy(LeaseSnapshot stored) {
    return isReleasedByAnother(stored)
        ? LeaseLost.Reason.FORCED_RELEASE
        : LeaseLost.Reason.TAKEN_OVER;
  }

  LeaseLost lossOrReleased() {
    LeaseLost loss = signal.lost();
    return loss != null
        ? loss
        : new LeaseLost(key(), generation(), LeaseLost.Reason.RELEASED, null, null);
  }

  /** The listener was told of this lease's end: nothing more of it is told. */
  void markEndTold() {
    endTold = true;
  }

  boolean endTold() {
    return endTold;
  }

  LossSignal signal() {
    return signal;
  }

  FencedRunner fenced() {
    return fenced;
  }

  /** The record as last written, with the time of the acquisition (see {@link #acquired}). */
  LeaseSnapshot current() {
    long written = revision;
    LeaseSnapshot record = acquired;
    return written == record.revision()
        ? record
        : new LeaseSnapshot(
            record.key(),
            record.generation(),
            written,
            record.state(),
            record.holder(),
            record.ttl(),
            record.updatedAt());
  }

  long renewedAtNanos() {
    return renewedAtNanos;
  }

  long dueNanos() {
    return dueNanos;
  }

  long deadlineNanos() {
    return renewedAtNanos + parts.timing().lossAfterNanos();
  }

  @Nullable RuntimeException lastFailure() {
    return lastFailure;
  }

  /** A renewal round wrote {@code written}; its write started at {@code startNanos}. */
  void renewed(LeaseSnapshot written, long startNanos) {
    revision = written.revision();
    if (startNanos - renewedAtNanos > 0) {
      renewedAtNanos = startNanos;
    }
    dueNanos = startNanos + parts.timing().heartbeatNanos();
    lastFailure = null;
  }

  /** The revision of the record this handle last wrote, or saw it had written. */
  long revision() {
    return revision;
  }

  /** The stored record is this handle's own, written by a call whose answer was lost. */
  void adopt(LeaseSnapshot stored, long retryAtNanos) {
    revision = stored.revision();
    dueNanos = retryAtNanos;
  }

  /** A renewal failed; the next round tries again at {@code retryAtNanos}. */
  void renewalFailed(RuntimeException failure, long retryAtNanos) {
    lastFailure = failure;
    dueNanos = retryAtNanos;
  }

  @Override
  public String toString() {
    // The signal, not isHeld(): printing a lease (a log line, a debugger) must not declare a loss.
    String state = signal.isLost() ? ", lost]" : ", held]";
    return "Lease[" + key() + ", generation " + generation() + state;
  }
}
