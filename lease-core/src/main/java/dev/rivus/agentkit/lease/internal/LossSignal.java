/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * The one-way switch from "held" to "lost" of one lease handle, and who to tell: running work calls
 * (to interrupt or cancel) and the {@code lost()} stage. The first loss wins; later ones are
 * ignored.
 *
 * <p>Declaring only changes state, so the manager's timer may do it: the work calls are told on the
 * interrupts lane, the {@code lost()} stage completes on the notifications lane, and neither can
 * delay the declaring thread. The stage and the set of work calls are made only when needed, so a
 * lease that never runs work and is never asked for its stage costs little memory.
 */
final class LossSignal {

  /**
   * What ended a lease. Cheap to make: the {@link LeaseLost} with its message and stack trace is
   * made only when someone asks for it, so that closing a lease costs no exception.
   */
  record Loss(
      String key,
      long generation,
      LeaseLost.Reason reason,
      @Nullable LeaseSnapshot seen,
      @Nullable Throwable cause) {}

  /** Something running under the lease that must react when it is lost. */
  interface Participant {
    /** Called once, on the interrupts lane; must not block for long. */
    void onLoss();
  }

  private final LeaseScheduler scheduler;
  private @Nullable CompletableFuture<LeaseLost> future; // guarded by this
  private @Nullable Set<Participant> participants; // guarded by this
  private volatile @Nullable Loss loss; // written under this
  private volatile @Nullable LeaseLost exception; // made from loss on first demand

  LossSignal(LeaseScheduler scheduler) {
    this.scheduler = scheduler;
  }

  /** Declares the loss; returns false if the lease was already lost. Never blocks. */
  boolean declare(Loss declared) {
    List<Participant> toTell;
    CompletableFuture<LeaseLost> toComplete;
    synchronized (this) {
      if (loss != null) {
        return false;
      }
      loss = declared;
      toTell = participants == null ? List.of() : new ArrayList<>(participants);
      participants = null;
      toComplete = future;
    }
    if (!toTell.isEmpty()) {
      scheduler.execute(Lane.INTERRUPTS, () -> toTell.forEach(Participant::onLoss));
    }
    if (toComplete != null) {
      // Users' dependent stages may block: never run them on the declaring (often timer) thread.
      scheduler.execute(Lane.NOTIFICATIONS, () -> toComplete.complete(exception()));
    }
    return true;
  }

  /** Adds a participant; returns false (and adds nothing) if the lease is already lost. */
  synchronized boolean join(Participant participant) {
    if (loss != null) {
      return false;
    }
    if (participants == null) {
      participants = new LinkedHashSet<>(4);
    }
    participants.add(participant);
    return true;
  }

  synchronized void leave(Participant participant) {
    if (participants != null) {
      participants.remove(participant);
    }
  }

  /** The loss as an exception, made once, on first demand; null while the lease is held. */
  @Nullable LeaseLost lost() {
    return loss == null ? null : exception();
  }

  /** Why the lease was lost, or null while it is held. */
  LeaseLost.@Nullable Reason reason() {
    Loss declared = loss;
    return declared == null ? null : declared.reason();
  }

  boolean isLost() {
    return loss != null;
  }

  private LeaseLost exception() {
    LeaseLost made = exception;
    if (made == null) {
      synchronized (this) {
        made = exception;
        if (made == null) {
          Loss declared = java.util.Objects.requireNonNull(loss, "declared");
          made =
              new LeaseLost(
                  declared.key(),
                  declared.generation(),
                  declared.reason(),
                  declared.seen(),
                  declared.cause());
          exception = made;
        }
      }
    }
    return made;
  }

  /**
   * The {@code lost()} stage. Asked for after the loss was declared, it is complete at once, so
   * that whoever sees {@code isHeld()} false can read the reason; its dependents then run on the
   * asking thread. Asked for before, it completes on the notifications lane.
   */
  CompletionStage<LeaseLost> stage() {
    if (loss != null) {
      return CompletableFuture.completedStage(exception());
    }
    CompletableFuture<LeaseLost> stage;
    boolean alreadyLost;
    synchronized (this) {
      if (future == null) {
        future = new CompletableFuture<>();
      }
      alreadyLost = loss != null; // declared since the check above
      stage = future;
    }
    if (alreadyLost) {
      return CompletableFuture.completedStage(exception());
    }
    return stage.minimalCompletionStage();
  }
}
