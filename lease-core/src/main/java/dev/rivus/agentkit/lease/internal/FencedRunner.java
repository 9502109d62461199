package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FencedWork;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWork;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs work under one lease: under the key's fence after re-reading the record ({@code runFenced}),
 * or simply raced against loss ({@code runUntilLost}). The work runs on the caller's thread.
 */
final class FencedRunner {

  private final ManagedLease lease;
  private final LeaseRepository repository;
  private final LeaseScheduler scheduler;
  private final Set<Thread> inFence = ConcurrentHashMap.newKeySet();

  FencedRunner(ManagedLease lease, LeaseRepository repository, LeaseScheduler scheduler) {
    this.lease = lease;
    this.repository = repository;
    this.scheduler = scheduler;
  }

  <T, X extends Exception> T run(FencedWork<T, X> work, boolean interruptible)
      throws X, InterruptedException {
    requireWork(work);
    // The fence is not reentrant: fenced work that runs fenced work on its own lease would wait for
    // itself for ever, renewing all the while.
    if (!inFence.add(Thread.currentThread())) {
      throw new IllegalStateException(
          "runFenced called from fenced work of the same lease '" + lease.key() + "'");
    }
    try {
      WorkCall call = new WorkCall(lease, scheduler, interruptible);
      join(call);
      try {
        LeaseRepository.Fence fence = takeFence(call);
        try {
          confirmOwnership(call);
          return runWork(call, () -> work.run(call));
        } finally {
          fence.close();
        }
      } finally {
        call.finish();
        lease.signal().leave(call);
      }
    } finally {
      inFence.remove(Thread.currentThread());
    }
  }

  <T, X extends Exception> T runUnfenced(LeaseWork<T, X> work) throws X, InterruptedException {
    requireWork(work);
    WorkCall call = new WorkCall(lease, scheduler, true);
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

  private void join(WorkCall call) {
    if (!lease.signal().join(call)) {
      throw lease.lossOrReleased().rethrown();
    }
  }

  private LeaseRepository.Fence takeFence(WorkCall call) throws InterruptedException {
    try {
      return repository.lockFence(lease.key());
    } catch (InterruptedException e) {
      if (call.interruptedByLoss()) {
        throw withSuppressed(lease.lossOrReleased().rethrown(), e);
      }
      throw e;
    } catch (RuntimeException e) {
      throw lostOr(call, e);
    }
  }

  /** Re-reads the record under the fence: the work runs only if it still names this handle. */
  private void confirmOwnership(WorkCall call) {
    Optional<LeaseSnapshot> stored;
    try {
      stored = repository.load(lease.key());
    } catch (RuntimeException e) {
      throw lostOr(call, e);
    }
    if (stored.isEmpty() || !lease.isOwnRecord(stored.get())) {
      lease.lose(LeaseLost.Reason.TAKEN_OVER, stored.orElse(null), null);
      throw lease.lossOrReleased().rethrown();
    }
    if (!call.startWork()) {
      throw lease.lossOrReleased().rethrown();
    }
  }

  private <T, X extends Exception> T runWork(WorkCall call, LeaseWork<T, X> work)
      throws X, InterruptedException {
    T result;
    try {
      result = work.run();
    } catch (InterruptedException e) {
      if (call.interruptedByLoss()) {
        throw withSuppressed(lease.lossOrReleased().rethrown(), e);
      }
      throw e;
    } catch (Exception | Error e) {
      if (lease.signal().isLost() && !(e instanceof Error)) {
        throw withSuppressed(lease.lossOrReleased().rethrown(), e);
      }
      throw e;
    }
    if (lease.signal().isLost()) {
      // The work ended, but the lease was lost while it ran: report the loss after it settled.
      throw lease.lossOrReleased().rethrown();
    }
    return result;
  }

  private RuntimeException lostOr(WorkCall call, RuntimeException failure) {
    if (call.interruptedByLoss() || lease.signal().isLost()) {
      return withSuppressed(lease.lossOrReleased().rethrown(), failure);
    }
    return failure;
  }

  private static LeaseLost withSuppressed(LeaseLost lost, Throwable suppressed) {
    lost.addSuppressed(suppressed);
    return lost;
  }

  private static void requireWork(Object work) {
    if (work == null) {
      throw new IllegalArgumentException("work must not be null");
    }
  }
}
