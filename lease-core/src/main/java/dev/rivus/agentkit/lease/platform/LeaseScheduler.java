/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.time.Duration;

/**
 * Timers and threads for blocking work, owned by one lease manager. Thread-safe.
 *
 * <p>Timer tasks must be short and never block: the manager's timer only changes state (a lease
 * expires, a renewal round falls due). Everything that may block goes to a {@link Lane}, each with
 * its own threads, so that what blocks one kind of work never delays another: a repository call
 * that hangs never delays an expiry, a log write or a user's callback that blocks never delays a
 * renewal or the interrupt of work whose lease was lost.
 */
public interface LeaseScheduler extends AutoCloseable {

  /** The kinds of blocking work, each run on threads of its own. */
  enum Lane {
    /** Repository calls: renewal rounds, key lock checks, releases. */
    REPOSITORY,
    /** Delivering a loss to running work: interrupts and the work's cancel actions. */
    INTERRUPTS,
    /** Logging and users' callbacks ({@code lost()} stages), in order. */
    NOTIFICATIONS,
    /** Events for the manager's {@code LeaseListener}, in order, apart from everything else. */
    LISTENER
  }

  /**
   * Runs {@code task} once after {@code delay}. Once the scheduler is closed, the task never runs.
   *
   * @param delay how long to wait on the platform's monotonic clock
   * @param task a short, non-blocking task
   * @return a handle to cancel the task before it runs
   */
  Cancellable schedule(Duration delay, Runnable task);

  /**
   * Runs {@code task}, which may block, on a thread of {@code lane} as soon as one is free; once
   * the scheduler is closed, runs it on the calling thread instead, so that no notification or
   * release is dropped. The {@link Lane#LISTENER} lane is the exception: its tasks run on its own
   * thread or not at all (after close, or when too many wait), since a listener must never run on a
   * thread that acquires, renews or releases.
   *
   * @param lane the kind of work
   * @param task the task
   */
  void execute(Lane lane, Runnable task);

  /** Stops the threads; timer tasks not yet started are dropped, lane tasks already queued run. */
  @Override
  void close();

  /** A scheduled task that can be cancelled. */
  interface Cancellable {
    /** Cancels the task if it has not started; does nothing otherwise. */
    void cancel();
  }
}
