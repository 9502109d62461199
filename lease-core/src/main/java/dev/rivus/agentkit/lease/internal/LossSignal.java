package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseLost;
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

  /** Something running under the lease that must react when it is lost. */
  interface Participant {
    /** Called once, on the interrupts lane; must not block for long. */
    void onLoss();
  }

  private final LeaseScheduler scheduler;
  private @Nullable CompletableFuture<LeaseLost> future; // guarded by this
  private @Nullable Set<Participant> participants; // guarded by this
  private volatile @Nullable LeaseLost lost; // written under this

  LossSignal(LeaseScheduler scheduler) {
    this.scheduler = scheduler;
  }

  /** Declares the loss; returns false if the lease was already lost. Never blocks. */
  boolean declare(LeaseLost loss) {
    List<Participant> toTell;
    CompletableFuture<LeaseLost> toComplete;
    synchronized (this) {
      if (lost != null) {
        return false;
      }
      lost = loss;
      toTell = participants == null ? List.of() : new ArrayList<>(participants);
      participants = null;
      toComplete = future;
    }
    if (!toTell.isEmpty()) {
      scheduler.execute(Lane.INTERRUPTS, () -> toTell.forEach(Participant::onLoss));
    }
    if (toComplete != null) {
      // Users' dependent stages may block: never run them on the declaring (often timer) thread.
      scheduler.execute(Lane.NOTIFICATIONS, () -> toComplete.complete(loss));
    }
    return true;
  }

  /** Adds a participant; returns false (and adds nothing) if the lease is already lost. */
  synchronized boolean join(Participant participant) {
    if (lost != null) {
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

  @Nullable LeaseLost lost() {
    return lost;
  }

  boolean isLost() {
    return lost != null;
  }

  CompletionStage<LeaseLost> stage() {
    CompletableFuture<LeaseLost> stage;
    LeaseLost already;
    synchronized (this) {
      if (future == null) {
        future = new CompletableFuture<>();
        already = lost;
      } else {
        already = null;
      }
      stage = future;
    }
    if (already != null) {
      scheduler.execute(Lane.NOTIFICATIONS, () -> stage.complete(already));
    }
    return stage.minimalCompletionStage();
  }
}
