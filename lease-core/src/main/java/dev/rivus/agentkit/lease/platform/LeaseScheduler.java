package dev.rivus.agentkit.lease.platform;

import java.time.Duration;

/**
 * Timers and a place for blocking work, owned by one lease manager. Timer tasks must be short and
 * never block; blocking work (repository calls, user callbacks) goes to {@link #execute(Runnable)}
 * so a stuck call never delays a timer. Thread-safe.
 */
public interface LeaseScheduler extends AutoCloseable {

  /**
   * Runs {@code task} once after {@code delay}. Once the scheduler is closed, the task never runs.
   *
   * @param delay how long to wait on the platform's monotonic clock
   * @param task a short, non-blocking task
   * @return a handle to cancel the task before it runs
   */
  Cancellable schedule(Duration delay, Runnable task);

  /**
   * Runs {@code task}, which may block, on another thread as soon as possible; once the scheduler
   * is closed, runs it on the calling thread instead, so that no notification is dropped.
   *
   * @param task the task
   */
  void execute(Runnable task);

  /** Stops the threads; tasks not yet started are dropped. */
  @Override
  void close();

  /** A scheduled task that can be cancelled. */
  interface Cancellable {
    /** Cancels the task if it has not started; does nothing otherwise. */
    void cancel();
  }
}
