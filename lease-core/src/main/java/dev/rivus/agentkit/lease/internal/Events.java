/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FencedWorkEnded;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseEvent.Acquisition;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.RenewalRound;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Tells the manager's listener what happened, on the listener lane, in order. The caller only
 * queues a task (nothing at all when there is no listener); the event is made and delivered on the
 * lane, and what the listener throws is logged and dropped.
 *
 * <p>Order: a lease's {@code acquired} is queued before the lease can be renewed, lost or released,
 * so it comes first. Its end ({@code lost} or {@code released}) marks the lease when it is
 * delivered, and a renewal told later (a round whose write was answered after the lease expired or
 * was closed) is then dropped, so that nothing of a lease is told after its end.
 */
final class Events {

  private static final System.Logger LOG = System.getLogger("dev.rivus.agentkit.lease");

  private final LeaseListener listener;
  private final LeaseScheduler scheduler;
  private final String manager;
  private final boolean enabled;

  Events(LeaseListener listener, LeaseScheduler scheduler, String manager) {
    this.listener = listener;
    this.scheduler = scheduler;
    this.manager = manager;
    this.enabled = listener != LeaseListener.NONE;
  }

  /** Whether anyone listens: callers skip making what only an event would need. */
  boolean enabled() {
    return enabled;
  }

  void acquired(String key, long generation, Acquisition how) {
    if (enabled) {
      queue(
          () ->
              deliver(new LeaseEvent.Acquired(manager, key, generation, how), listener::acquired));
    }
  }

  void heldByAnother(
      LeaseSnapshot current, Duration observedUnchanged, Duration ttl, Liveness liveness) {
    if (enabled) {
      queue(
          () ->
              deliver(
                  new LeaseEvent.HeldByAnother(
                      manager,
                      current.key(),
                      current.generation(),
                      current,
                      observedUnchanged,
                      ttl,
                      liveness),
                  listener::heldByAnother));
    }
  }

  /** One round's renewals, as one task: a round of many leases queues one task, not many. */
  void renewed(List<ManagedLease> leases, Duration latency) {
    if (enabled && !leases.isEmpty()) {
      queue(
          () -> {
            for (ManagedLease lease : leases) {
              if (!lease.endTold()) {
                deliver(
                    new LeaseEvent.Renewed(manager, lease.key(), lease.generation(), latency),
                    listener::renewed);
              }
            }
          });
    }
  }

  /** One round's failed renewals, as one task. */
  void renewalsFailed(List<FailedRenewal> failures) {
    if (enabled && !failures.isEmpty()) {
      queue(
          () -> {
            for (FailedRenewal failed : failures) {
              ManagedLease lease = failed.lease();
              if (!lease.endTold()) {
                deliver(
                    new LeaseEvent.RenewalFailed(
                        manager, lease.key(), lease.generation(), failed.cause(), failed.ttlLeft()),
                    listener::renewalFailed);
              }
            }
          });
    }
  }

  /** A round runs late: one event for the round, named after {@code atRisk}. */
  void renewalLate(ManagedLease atRisk, int leases, Duration running, Duration ttlLeft) {
    if (enabled) {
      queue(
          () -> {
            if (!atRisk.endTold()) {
              deliver(
                  new LeaseEvent.RenewalLate(
                      manager, atRisk.key(), atRisk.generation(), leases, running, ttlLeft),
                  listener::renewalLate);
            }
          });
    }
  }

  /** The lease ended: lost for {@code reason}, or released; nothing of it is told after this. */
  void ended(ManagedLease lease, LeaseLost.Reason reason) {
    if (enabled) {
      queue(
          () -> {
            lease.markEndTold();
            if (reason == LeaseLost.Reason.RELEASED) {
              deliver(
                  new LeaseEvent.Released(manager, lease.key(), lease.generation()),
                  listener::released);
            } else {
              deliver(
                  new LeaseEvent.Lost(
                      manager, lease.key(), lease.generation(), reason, lease.lossOrReleased()),
                  listener::lost);
            }
          });
    }
  }

  /** A renewal round ended: how many leases it renewed, and how long it took. */
  void roundEnded(int leases, int renewed, int failed, Duration took) {
    if (enabled) {
      queue(
          () ->
              deliver(
                  new RenewalRound(manager, leases, renewed, failed, took),
                  listener::renewalRound));
    }
  }

  /** Fenced work ended; told even after the lease's end, which its outcome then says. */
  void fencedWorkEnded(
      String key, long generation, Duration took, FencedWorkEnded.Outcome outcome) {
    if (enabled) {
      queue(
          () ->
              deliver(
                  new FencedWorkEnded(manager, key, generation, took, outcome),
                  listener::fencedWorkEnded));
    }
  }

  /** A renewal that failed, with how much of the TTL was left when it did. */
  record FailedRenewal(ManagedLease lease, RuntimeException cause, Duration ttlLeft) {}

  private void queue(Runnable task) {
    scheduler.execute(Lane.LISTENER, task);
  }

  private <E> void deliver(E event, Consumer<E> method) {
    try {
      method.accept(event);
    } catch (RuntimeException | Error e) {
      if (e instanceof VirtualMachineError) {
        throw e;
      }
      LOG.log(Level.WARNING, "the lease listener failed on " + event + "; event dropped", e);
    }
  }
}
