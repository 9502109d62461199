/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.FencedWorkEnded;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.RenewalRound;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Tells every listener bean, in order; one that throws does not keep the others from hearing.
 * Called by the manager on its one listener thread.
 */
final class Listeners implements LeaseListener {

  private static final System.Logger LOG = System.getLogger(Listeners.class.getName());

  private final List<LeaseListener> all;

  Listeners(List<LeaseListener> all) {
    this.all = List.copyOf(all);
  }

  /** The one listener that tells {@code all}: none, the one, or one that tells each. */
  static @Nullable LeaseListener of(List<LeaseListener> all) {
    if (all.isEmpty()) {
      return null;
    }
    return all.size() == 1 ? all.get(0) : new Listeners(all);
  }

  @Override
  public void acquired(LeaseEvent.Acquired event) {
    tell(listener -> listener.acquired(event), event);
  }

  @Override
  public void heldByAnother(LeaseEvent.HeldByAnother event) {
    tell(listener -> listener.heldByAnother(event), event);
  }

  @Override
  public void renewed(LeaseEvent.Renewed event) {
    tell(listener -> listener.renewed(event), event);
  }

  @Override
  public void renewalFailed(LeaseEvent.RenewalFailed event) {
    tell(listener -> listener.renewalFailed(event), event);
  }

  @Override
  public void renewalLate(LeaseEvent.RenewalLate event) {
    tell(listener -> listener.renewalLate(event), event);
  }

  @Override
  public void lost(LeaseEvent.Lost event) {
    tell(listener -> listener.lost(event), event);
  }

  @Override
  public void released(LeaseEvent.Released event) {
    tell(listener -> listener.released(event), event);
  }

  @Override
  public void renewalRound(RenewalRound round) {
    tell(listener -> listener.renewalRound(round), round);
  }

  @Override
  public void fencedWorkEnded(FencedWorkEnded ended) {
    tell(listener -> listener.fencedWorkEnded(ended), ended);
  }

  private void tell(Consumer<LeaseListener> method, Object event) {
    for (LeaseListener listener : all) {
      try {
        method.accept(listener);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, listener + " failed on " + event + "; dropped", e);
      }
    }
  }
}
