/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * A held lease: one owner of one key, with a fencing token (the {@link #generation()}).
 *
 * <p>Obtained from {@link LeaseManager#acquire(String)}. The manager renews it every heartbeat
 * until it is closed or lost. Close it with try-with-resources: closing stops the heartbeat and
 * releases the lease, leaving a tombstone so the next holder gets a higher generation. Loss is
 * final: a lost handle never holds again.
 *
 * <p>Thread-safe: a lease may be used and closed from any thread.
 */
public interface Lease extends AutoCloseable {

  /**
   * Returns the lease key.
   *
   * @return the key
   */
  String key();

  /**
   * Returns this handle's generation, the fencing token. It is higher than every generation handed
   * out for this key before.
   *
   * @return the generation, at least 1
   */
  long generation();

  /**
   * Returns this handle's holder identity, as written to the record.
   *
   * @return the holder
   */
  HolderIdentity holder();

  /**
   * Tells whether this handle still holds the lease, as far as it knows. Once the time a holder
   * gives up after its last successful renewal has passed (the TTL less a safety margin), the
   * answer is {@code false} even if the manager's timer has not run yet (after a pause of the
   * process, say): the lease is then declared lost ({@code EXPIRED}) by this call. Once it returns
   * {@code false}, {@link #lost()} is complete.
   *
   * @return {@code false} once the lease is lost or released
   */
  boolean isHeld();

  /**
   * Returns a stage that completes with the {@link LeaseLost} saying why, when the lease is lost or
   * released. Dependent actions run on a library thread; keep them short. Once {@link #isHeld()}
   * has returned {@code false}, the stage this returns is already complete (its dependents then run
   * on the calling thread), so the reason can be read at once.
   *
   * @return the loss signal; it never completes exceptionally
   */
  CompletionStage<LeaseLost> lost();

  /**
   * Runs {@code work} under the key lock if this handle still holds the lease, and interrupts it if
   * the lease is lost meanwhile.
   *
   * <p>Takes the repository's key lock (waiting for a predecessor's fenced work to end), re-reads
   * the record, and runs the work on the calling thread only if the record still names this handle
   * and generation. If the lease is lost while the work runs, the thread is interrupted and the
   * token's cancel actions run; the key lock is released only when the work has ended. No interrupt
   * delivered by the library is left on the thread afterwards; an interrupt from elsewhere is kept
   * (one pending when the loss was delivered is set again when this returns).
   *
   * @param work the work; it receives the fencing token
   * @param <T> the result type
   * @param <X> the checked exception the work may throw
   * @return the work's result
   * @throws LeaseLost if the lease was lost before or while waiting for the key lock, at the
   *     re-read, or while the work ran (then the work's own failure, if any, is attached as
   *     suppressed)
   * @throws X if the work failed while the lease was held
   * @throws InterruptedException if the calling thread was interrupted from elsewhere
   * @throws LeaseRepositoryFailure if the key lock or the record could not be read
   * @throws IllegalStateException if called from fenced work of this same lease (the key lock is
   *     not reentrant)
   * @throws NullPointerException if {@code work} is null
   */
  <T extends @Nullable Object, X extends Exception> T runFenced(FencedWork<T, X> work)
      throws X, InterruptedException;

  /**
   * Like {@link #runFenced(FencedWork)}, but the work is never interrupted or cancelled by the
   * library: if the lease is lost while it runs, the key lock waits for it to settle and the loss
   * is reported after it, as {@link LeaseLost}.
   *
   * @param work the work; it receives the fencing token
   * @param <T> the result type
   * @param <X> the checked exception the work may throw
   * @return the work's result
   * @throws LeaseLost if the lease was lost before the work started or while it ran
   * @throws X if the work failed while the lease was held
   * @throws InterruptedException if the calling thread was interrupted from elsewhere
   * @throws LeaseRepositoryFailure if the key lock or the record could not be read
   * @throws IllegalStateException if called from fenced work of this same lease
   * @throws NullPointerException if {@code work} is null
   */
  <T extends @Nullable Object, X extends Exception> T runFencedUninterruptibly(
      FencedWork<T, X> work) throws X, InterruptedException;

  /**
   * Runs {@code work} on the calling thread and interrupts it if the lease is lost meanwhile,
   * without taking the key lock. Use it for long work whose writes are fenced separately, or that
   * must simply stop when the lease is gone.
   *
   * @param work the work
   * @param <T> the result type
   * @param <X> the checked exception the work may throw
   * @return the work's result
   * @throws LeaseLost if the lease was lost before or while the work ran
   * @throws X if the work failed while the lease was held
   * @throws InterruptedException if the calling thread was interrupted from elsewhere
   * @throws NullPointerException if {@code work} is null
   */
  <T extends @Nullable Object, X extends Exception> T runUntilLost(LeaseWork<T, X> work)
      throws X, InterruptedException;

  /**
   * Stops renewing and releases the lease, leaving a tombstone with this generation, and returns
   * once the tombstone is written. Interrupts fenced work still running on other threads, and
   * completes {@link #lost()} with reason {@link LeaseLost.Reason#RELEASED}. Does nothing if
   * already closed. An interrupt of the closing thread does not stop the release (it is kept for
   * the caller). A release the repository refuses is logged, not thrown: the lease then expires
   * after the TTL.
   */
  @Override
  void close();
}
