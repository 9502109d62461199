package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
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
 */
final class LossSignal {

  /** Something running under the lease that must react when it is lost. */
  interface Participant {
    /** Called once, on the thread that declared the loss; must not block. */
    void onLoss();
  }

  private final LeaseScheduler scheduler;
  private final CompletableFuture<LeaseLost> future = new CompletableFuture<>();
  private final Set<Participant> participants = new LinkedHashSet<>();
  private @Nullable LeaseLost lost;

  LossSignal(LeaseScheduler scheduler) {
    this.scheduler = scheduler;
  }

  /** Declares the loss; returns false if the lease was already lost. */
  boolean declare(LeaseLost loss) {
    List<Participant> toTell;
    synchronized (this) {
      if (lost != null) {
        return false;
      }
      lost = loss;
      toTell = new ArrayList<>(participants);
      participants.clear();
    }
    toTell.forEach(Participant::onLoss);
    // Users' dependent stages may block: never run them on the declaring (often timer) thread.
    scheduler.execute(() -> future.complete(loss));
    return true;
  }

  /** Adds a participant; returns false (and adds nothing) if the lease is already lost. */
  synchronized boolean join(Participant participant) {
    if (lost != null) {
      return false;
    }
    participants.add(participant);
    return true;
  }

  synchronized void leave(Participant participant) {
    participants.remove(participant);
  }

  synchronized @Nullable LeaseLost lost() {
    return lost;
  }

  synchronized boolean isLost() {
    return lost != null;
  }

  CompletionStage<LeaseLost> stage() {
    return future.minimalCompletionStage();
  }
}
