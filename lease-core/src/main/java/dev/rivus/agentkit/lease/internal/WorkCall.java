package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FenceToken;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of work under a lease (fenced or not), on the thread that called it: it interrupts that
 * thread on loss while it waits for the fence or, if interruptible, while it works, and makes sure
 * no interrupt of ours is left on the thread once the run is over.
 */
final class WorkCall implements LossSignal.Participant, FenceToken {

  private static final System.Logger LOG = System.getLogger(WorkCall.class.getName());

  private enum Phase {
    WAITING,
    WORKING,
    DONE
  }

  private final ManagedLease lease;
  private final LeaseScheduler scheduler;
  private final Thread thread = Thread.currentThread();
  private final boolean interruptible;
  private final List<Runnable> cancelActions = new ArrayList<>();
  private Phase phase = Phase.WAITING;
  private boolean interruptedByUs;
  private boolean alreadyInterrupted;
  private boolean lossSeen;

  WorkCall(ManagedLease lease, LeaseScheduler scheduler, boolean interruptible) {
    this.lease = lease;
    this.scheduler = scheduler;
    this.interruptible = interruptible;
  }

  @Override
  public void onLoss() {
    List<Runnable> toCancel = List.of();
    synchronized (this) {
      lossSeen = true;
      if (phase == Phase.DONE || (phase == Phase.WORKING && !interruptible)) {
        return;
      }
      if (!interruptedByUs) {
        alreadyInterrupted = thread.isInterrupted();
        interruptedByUs = true;
        thread.interrupt();
      }
      if (phase == Phase.WORKING) {
        toCancel = new ArrayList<>(cancelActions);
        cancelActions.clear();
      }
    }
    toCancel.forEach(this::runCancelAction);
  }

  /**
   * Moves from waiting to working; false if the lease was lost meanwhile (the work must not run).
   */
  synchronized boolean startWork() {
    if (lossSeen || lease.signal().isLost()) {
      return false;
    }
    phase = Phase.WORKING;
    return true;
  }

  /** Whether an interrupt of the thread came from this call (a loss), not from elsewhere. */
  synchronized boolean interruptedByLoss() {
    return interruptedByUs;
  }

  /** Ends the run on the calling thread: no interrupt may arrive from us after this. */
  void finish() {
    synchronized (this) {
      phase = Phase.DONE;
      cancelActions.clear();
      if (!interruptedByUs || alreadyInterrupted) {
        return;
      }
    }
    // Clear the interrupt we delivered, which may still be pending if the work ignored it.
    Thread.interrupted();
  }

  @Override
  public String key() {
    return lease.key();
  }

  @Override
  public long generation() {
    return lease.generation();
  }

  @Override
  public boolean isHeld() {
    return lease.isHeld();
  }

  @Override
  public Registration onLoss(Runnable cancelAction) {
    if (cancelAction == null) {
      throw new IllegalArgumentException("cancelAction must not be null");
    }
    synchronized (this) {
      if (!interruptible) {
        return () -> {};
      }
      if (!lossSeen && phase != Phase.DONE) {
        cancelActions.add(cancelAction);
        return () -> {
          synchronized (WorkCall.this) {
            cancelActions.remove(cancelAction);
          }
        };
      }
      if (phase == Phase.DONE) {
        return () -> {};
      }
    }
    runCancelAction(cancelAction);
    return () -> {};
  }

  private void runCancelAction(Runnable action) {
    scheduler.execute(
        () -> {
          try {
            action.run();
          } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cancel action of lease '" + lease.key() + "' failed", e);
          }
        });
  }
}
