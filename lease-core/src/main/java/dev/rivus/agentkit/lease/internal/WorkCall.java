/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of work under a lease (fenced or not), on the thread that called it: it interrupts that
 * thread on loss while it waits for the key lock or, if interruptible, while it works, and makes
 * sure no interrupt of ours is left on the thread once the run is over.
 */
final class WorkCall implements LossSignal.Participant, FencingToken {

  private enum Phase {
    WAITING,
    WORKING,
    DONE
  }

  private final ManagedLease lease;
  private final ManagerParts parts;
  private final Thread thread = Thread.currentThread();
  private final boolean interruptible;
  private final List<CancelAction> cancelActions = new ArrayList<>(); // guarded by this
  private Phase phase = Phase.WAITING; // guarded by this
  private boolean interruptedByUs; // guarded by this
  private boolean alreadyInterrupted; // guarded by this
  private boolean lossSeen; // guarded by this
  private boolean keepOutsideInterrupt; // guarded by this
  private int actionsRunning; // guarded by this

  WorkCall(ManagedLease lease, ManagerParts parts, boolean interruptible) {
    this.lease = lease;
    this.parts = parts;
    this.interruptible = interruptible;
  }

  @Override
  public void onLoss() {
    List<CancelAction> toCancel = List.of();
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
      }
    }
    toCancel.forEach(this::runCancelAction);
  }

  /**
   * Moves from waiting to working; false if the lease was lost meanwhile (the work must not run).
   */
  synchronized boolean startWork() {
    if (lossSeen || !lease.isHeld()) {
      return false;
    }
    phase = Phase.WORKING;
    return true;
  }

  /**
   * Called on the work's thread when the work ended with an {@code InterruptedException} after the
   * loss, which is then reported as {@code LeaseLost}. Decides whether that exception came from an
   * interrupt from elsewhere, which must then be set again when the run ends: it did if our
   * interrupt was not delivered yet, or if ours is still pending (so the exception predates it).
   * Otherwise it consumed ours, and an interrupt from elsewhere pending at our delivery is restored
   * as usual.
   */
  synchronized void workInterruptedAfterLoss() {
    if (!interruptedByUs || thread.isInterrupted()) {
      keepOutsideInterrupt = true;
    }
  }

  /** Whether an interrupt of the thread came from this call (a loss), not from elsewhere. */
  synchronized boolean interruptedByLoss() {
    return interruptedByUs;
  }

  /**
   * Ends the run on the calling thread: waits for cancel actions already running, and from then on
   * neither an interrupt nor a cancel action comes from this call. The interrupt we delivered is
   * cleared; one that was pending from elsewhere when we delivered ours is set again.
   */
  void finish() {
    boolean restore;
    synchronized (this) {
      phase = Phase.DONE;
      cancelActions.clear();
      awaitActions();
      if (!interruptedByUs && !keepOutsideInterrupt) {
        return;
      }
      restore = keepOutsideInterrupt || alreadyInterrupted;
    }
    if (restore) {
      thread.interrupt();
    } else {
      Thread.interrupted();
    }
  }

  /** Waits, holding this monitor's turn, until no cancel action runs. Never interrupted. */
  private void awaitActions() {
    boolean interrupted = false;
    while (actionsRunning > 0) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
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
    java.util.Objects.requireNonNull(cancelAction, "cancelAction");
    CancelAction action = new CancelAction(cancelAction);
    boolean runNow;
    synchronized (this) {
      if (!interruptible || phase == Phase.DONE) {
        return () -> {};
      }
      cancelActions.add(action);
      runNow = lossSeen && phase == Phase.WORKING;
    }
    if (runNow) {
      runCancelAction(action);
    }
    return () -> {
      synchronized (WorkCall.this) {
        cancelActions.remove(action);
        action.removed = true;
        awaitActions();
      }
    };
  }

  private void runCancelAction(CancelAction action) {
    LeaseScheduler scheduler = parts.scheduler();
    scheduler.execute(
        Lane.INTERRUPTS,
        () -> {
          synchronized (this) {
            // The call may have ended, or the caller removed the action, since the loss.
            if (phase == Phase.DONE || action.removed || action.ran) {
              return;
            }
            action.ran = true;
            actionsRunning++;
          }
          try {
            action.task.run();
          } catch (RuntimeException e) {
            parts.warnings().warn("cancel action of lease '" + lease.key() + "' failed", e);
          } finally {
            synchronized (this) {
              actionsRunning--;
              notifyAll();
            }
          }
        });
  }

  /** A registered cancel action; runs at most once. */
  private static final class CancelAction {
    final Runnable task;
    boolean removed; // guarded by the WorkCall
    boolean ran; // guarded by the WorkCall

    CancelAction(Runnable task) {
      this.task = task;
    }
  }
}
