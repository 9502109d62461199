/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Writes the manager's warnings through {@link System.Logger}, always on the notifications lane: a
 * log that blocks (a full pipe, a terminal stopped with Ctrl-S) then delays only other
 * notifications, never a renewal, an expiry or an interrupt.
 */
final class Warnings {

  private static final System.Logger LOG = System.getLogger("dev.rivus.agentkit.lease");

  private final LeaseScheduler scheduler;

  Warnings(LeaseScheduler scheduler) {
    this.scheduler = scheduler;
  }

  void warn(String message, @Nullable Throwable cause) {
    warn(() -> message, cause);
  }

  /** Logs a message made on the notifications lane, so that making it costs its caller nothing. */
  void warn(Supplier<String> message, @Nullable Throwable cause) {
    scheduler.execute(
        Lane.NOTIFICATIONS,
        () -> {
          if (cause == null) {
            LOG.log(Level.WARNING, message);
          } else {
            LOG.log(Level.WARNING, message.get(), cause);
          }
        });
  }
}
