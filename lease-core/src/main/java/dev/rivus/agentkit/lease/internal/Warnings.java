/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * Losses held back while a window is open (guarded by this): the first losses are logged at once
   * and open a window of a heartbeat; those that come within it are logged as one line when it
   * ends, and open the next. Null while no window is open.
   */
  private @Nullable List<ManagedLease> heldBack;

  private @Nullable Duration window; // guarded by this; set while heldBack is

  Warnings(LeaseScheduler scheduler) {
    this.scheduler = scheduler;
  }

  /**
   * Logs the loss of {@code leases} (at least one), lost together: at once in one line if no loss
   * was logged within the last {@code window}, else with the others of that window, in one line
   * when it ends. So leases that expire one after another (acquired one by one, on a store too slow
   * for them) make a line per heartbeat, not one each. Only queues or schedules: safe on the timer.
   */
  void lost(List<ManagedLease> leases, Duration window) {
    synchronized (this) {
      List<ManagedLease> gathering = heldBack;
      if (gathering != null) {
        gathering.addAll(leases);
        return;
      }
      heldBack = new ArrayList<>();
      this.window = window;
    }
    warn(() -> Losses.message(leases, null), null);
    scheduler.schedule(window, this::endWindow);
  }

  /** Logs what the window gathered, if anything, and opens the next one; else closes it. */
  private void endWindow() {
    List<ManagedLease> gathered;
    Duration length;
    synchronized (this) {
      gathered = heldBack;
      length = window;
      if (gathered == null || length == null) {
        return;
      }
      if (gathered.isEmpty()) {
        heldBack = null;
        window = null;
        return;
      }
      heldBack = new ArrayList<>();
    }
    warn(() -> Losses.message(gathered, length), null);
    scheduler.schedule(length, this::endWindow);
  }

  /** Logs the losses held back, now: the manager closes, and its timer with it. */
  void flushLosses() {
    List<ManagedLease> gathered;
    Duration length;
    synchronized (this) {
      gathered = heldBack;
      length = window;
      heldBack = null;
      window = null;
    }
    if (gathered != null && length != null && !gathered.isEmpty()) {
      warn(() -> Losses.message(gathered, length), null);
    }
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
