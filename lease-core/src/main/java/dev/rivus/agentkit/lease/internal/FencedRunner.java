/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FencedWork;
import dev.rivus.agentkit.lease.FencedWorkEnded;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWork;
import dev.rivus.agentkit.lease.StoreLost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Runs work under one lease: under the key lock after re-reading the record ({@code runFenced}), or
 * simply raced against loss ({@code runUntilLost}). The work runs on the caller's thread. While
 * fenced work runs, its key lock is checked every renewal round: a key lock that was lost ends the
 * work as the loss of the lease does.
 */
final class FencedRunner {

  private final ManagedLease lease;
  private final ManagerParts parts;

  /** The manager holding the lease: told of running fenced work, and of a lost store. */
  private final LeaseOwner owner;

  /** The key locks held by fenced work now running, by thread; made on first use. */
  private @Nullable IdentityHashMap<Thread, LeaseRepository.KeyLock> keyLocks; // guarded by this

  FencedRunner(ManagedLease lease, ManagerParts parts, LeaseOwner owner) {
    this.lease = lease;
    this.parts = parts;
    this.owner = owner;
  }

  <T extends @Nullable Object, X extends Exception> T run(
      FencedWork<T, X> work, boolean interruptible) throws X, InterruptedException {
    Objects.requireNonNull(work, "work");
    Thread thread = Thread.currentThread();
    synchronized (this) {
      // The key lock is not reentrant: fenced work that runs fenced work on its own lease would
      // wait
      // for itself for ever, renewing all the while.
      if (keyLocks != null && keyLocks.containsKey(thread)) {
        throw new IllegalStateException(
            "runFenced called from fenced work of the same lease '" + lease.key() + "'");
      }
    }
    long start = parts.ticker().nanoTime();
    FencedWorkEnded.Outcome outcome = FencedWorkEnded.Outcome.FAILED;
    try {
      T result = runUnderKeyLock(work, interruptible, thread);
      outcome = FencedWorkEnded.Outcome.COMPLETED;
      return result;
    } catch (LeaseLost lost) {
      outcome = FencedWorkEnded.Outcome.LOST;
      throw lost;
    } finally {
      parts
          .events()
          .fencedWorkEnded(
              lease.key(),
              lease.generation(),
              Duration.ofNanos(parts.ticker().nanoTime() - start),
              outcome);
    }
  }

  private <T extends @Nullable Object, X extends Exception> T runUnderKeyLock(
      FencedWork<T, X> work, boolean interruptible, Thread thread) throws X, InterruptedException {
    WorkCall call = new WorkCall(lease, parts, interruptible);
    join(call);
    try {
      LeaseRepository.KeyLock keyLock = takeKeyLock(call);
      register(thread, keyLock);
      try {
        confirmOwnership(call);
        return runWork(call, () -> work.run(call));
      } finally {
        unregister(thread);
        if (lease.isHeld()) {
          keyLock.close();
        } else {
          keyLock.abandon(); // lost: report it now, not once the storage answers
        }
      }
    } finally {
      call.finish();
      lease.signal().leave(call);
    }
  }

  <T extends @Nullable Object, X extends Exception> T runUnfenced(LeaseWork<T, X> work)
      throws X, InterruptedException {
    Objects.requireNonNull(work, "work");
    WorkCall call = new WorkCall(lease, parts, true);
    join(call);
    try {
      if (!call.startWork()) {
        throw lease.lossOrReleased().rethrown();
      }
      return runWork(call, work);
    } finally {
      call.finish();
      lease.signal().leave(call);
    }
  }

  /**
   * Asks every key lock of running fenced work whether it is still held; a lost one gives the lease
   * up. Called by the renewal round, on the repository lane, for leases with fenced work running.
   * Asking is also what keeps a key lock across a network from being ended for silence; a lost
   * lease's key lock is not asked any more, so the storage may end it once the TTL and the grace
   * have passed (see {@link LeaseRepository#lockKey(String, java.time.Duration)}).
   */
  void checkKeyLocks() {
    if (!lease.isHeld()) {
      return;
    }
    List<LeaseRepository.KeyLock> running;
    synchronized (this) {
      if (keyLocks == null || keyLocks.isEmpty()) {
        return;
      }
      running = new ArrayList<>(keyLocks.values());
    }
    for (LeaseRepository.KeyLock keyLock : running) {
      boolean held;
      try {
        held = keyLock.isHeld();
      } catch (RuntimeException failure) {
        lease.lose(LeaseLost.Reason.KEY_LOCK_LOST, null, failure);
        return;
      }
      if (!held && isRegistered(keyLock)) {
        lease.lose(LeaseLost.Reason.KEY_LOCK_LOST, null, null);
        return;
      }
    }
  }

  /** Under this monitor, so that the manager's set of running fenced work agrees with ours. */
  private synchronized void register(Thread thread, LeaseRepository.KeyLock keyLock) {
    if (keyLocks == null) {
      keyLocks = new IdentityHashMap<>(2);
    }
    keyLocks.put(thread, keyLock);
    owner.fencedWork(this, true);
  }

  private synchronized void unregister(Thread thread) {
    if (keyLocks != null) {
      keyLocks.remove(thread);
      if (keyLocks.isEmpty()) {
        owner.fencedWork(this, false);
      }
    }
  }

  /** Whether the key lock still guards running work (it was not just released by its work). */
  private synchronized boolean isRegistered(LeaseRepository.KeyLock keyLock) {
    return keyLocks != null && keyLocks.containsValue(keyLock);
  }

  private void join(WorkCall call) {
    if (!lease.signal().join(call)) {
      throw lease.lossOrReleased().rethrown();
    }
  }

  private LeaseRepository.KeyLock takeKeyLock(WorkCall call) throws InterruptedException {
    LeaseRepository repository = parts.repository();
    try {
      // Bounded by the holder's silence: once the lease is lost, checkKeyLocks stops asking, and
      // a storage across a network may end the lock after the TTL and the grace.
      return repository.lockKey(lease.key(), parts.keyLockSilenceLimit());
    } catch (InterruptedException e) {
      if (call.interruptedByLoss()) {
        throw withSuppressed(lease.lossOrReleased().rethrown(), e);
      }
      throw e;
    } catch (StoreLost lost) {
      throw storeLost(lost);
    } catch (RuntimeException e) {
      throw lostOr(call, e);
    }
  }

  /** Re-reads the record under the key lock: the work runs only if it still names this handle. */
  private void confirmOwnership(WorkCall call) {
    Optional<LeaseSnapshot> stored;
    try {
      stored = parts.repository().load(lease.key());
    } catch (StoreLost lost) {
      throw storeLost(lost);
    } catch (RuntimeException e) {
      throw lostOr(call, e);
    }
    if (stored.isEmpty() || stored.get().isFloor()) {
      lease.lose(LeaseLost.Reason.STORE_LOST, null, null); // our held record vanished
      throw lease.lossOrReleased().rethrown();
    }
    if (!lease.isOwnRecord(stored.get())) {
      lease.lose(lease.lossShownBy(stored.get()), stored.get(), null);
      throw lease.lossOrReleased().rethrown();
    }
    if (!call.startWork()) {
      throw lease.lossOrReleased().rethrown();
    }
  }

  private LeaseLost storeLost(StoreLost lost) {
    lease.lose(LeaseLost.Reason.STORE_LOST, null, lost);
    owner.storeLost(lost);
    return lease.lossOrReleased().rethrown();
  }

  private <T extends @Nullable Object, X extends Exception> T runWork(
      WorkCall call, LeaseWork<T, X> work) throws X, InterruptedException {
    T result;
    try {
      result = work.run();
    } catch (InterruptedException e) {
      if (call.interruptedByLoss() || !lease.isHeld()) {
        // Reported as the loss; an interrupt from elsewhere that caused it is kept for the caller.
        call.workInterruptedAfterLoss();
        throw withSuppressed(lease.lossOrReleased().rethrown(), e);
      }
      throw e;
    } catch (Exception | Error e) {
      if (!lease.isHeld() && !(e instanceof Error)) {
        throw withSuppressed(lease.lossOrReleased().rethrown(), e);
      }
      throw e;
    }
    if (!lease.isHeld()) {
      // The work ended, but the lease was lost while it ran: report the loss after it settled.
      throw lease.lossOrReleased().rethrown();
    }
    return result;
  }

  private RuntimeException lostOr(WorkCall call, RuntimeException failure) {
    if (call.interruptedByLoss() || !lease.isHeld()) {
      return withSuppressed(lease.lossOrReleased().rethrown(), failure);
    }
    return failure;
  }

  private static LeaseLost withSuppressed(LeaseLost lost, Throwable suppressed) {
    lost.addSuppressed(suppressed);
    return lost;
  }
}
