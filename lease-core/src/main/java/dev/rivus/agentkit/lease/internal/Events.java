/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * Hands events to the manager's listener on its own lane, in order. The event is made there too, so
 * that telling costs the renewal round or the timer one queued task, and nothing at all when there
 * is no listener. What the listener throws is logged and dropped.
 */
final class Events {

  private static final System.Logger LOG = System.getLogger("dev.rivus.agentkit.lease");

  private final LeaseListener listener;
  private final LeaseScheduler scheduler;
  private final boolean enabled;

  Events(LeaseListener listener, LeaseScheduler scheduler) {
    this.listener = listener;
    this.scheduler = scheduler;
    this.enabled = listener != LeaseListener.NONE;
  }

  /** Whether anyone listens: callers skip making what only an event would need. */
  boolean enabled() {
    return enabled;
  }

  <E extends LeaseEvent> void tell(Supplier<E> event, Delivery<E> delivery) {
    if (!enabled) {
      return;
    }
    scheduler.execute(
        Lane.LISTENER,
        () -> {
          E made = event.get();
          try {
            delivery.deliver(listener, made);
          } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError) {
              throw e;
            }
            LOG.log(Level.WARNING, "the lease listener failed on " + made + "; event dropped", e);
          }
        });
  }

  /** Which of the listener's methods hears an event. */
  @FunctionalInterface
  interface Delivery<E extends LeaseEvent> {
    void deliver(LeaseListener listener, E event);
  }
}
