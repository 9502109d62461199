/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.support.Durations;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One timer thread, plus a few daemon threads per lane, started when work arrives and stopped after
 * a minute idle. The bound does not grow with the number of leases or of calls that hang: at most
 * {@value #TIMER_THREADS} + {@value #REPOSITORY_THREADS} + {@value #INTERRUPT_THREADS} + {@value
 * #NOTIFICATION_THREADS} + {@value #LISTENER_THREADS} threads per manager. Work beyond a lane's
 * threads waits in its queue.
 */
final class SystemScheduler implements LeaseScheduler {

  static final int TIMER_THREADS = 1;

  /** One for the renewal round, one for releases and key lock checks while a round runs. */
  static final int REPOSITORY_THREADS = 2;

  /** Interrupts, and cancel actions (users' code that may block for a while). */
  static final int INTERRUPT_THREADS = 2;

  /** One, so that notifications keep their order. */
  static final int NOTIFICATION_THREADS = 1;

  /** One, so that a listener sees a lease's events in order. */
  static final int LISTENER_THREADS = 1;

  /**
   * Tasks that wait for a listener at most (a renewal round is one task, whatever its size): a
   * listener that blocks for good then costs a bounded amount of memory, and later events are
   * dropped, with one warning.
   */
  static final int LISTENER_QUEUE = 10_000;

  private static final System.Logger LOG = System.getLogger("dev.rivus.agentkit.lease");

  private static final long IDLE_SECONDS = 60;

  private final ScheduledThreadPoolExecutor timer;
  private final Map<Lane, ThreadPoolExecutor> lanes = new EnumMap<>(Lane.class);

  private final @Nullable ThreadFactory threads;
  private final AtomicLong droppedEvents = new AtomicLong();

  SystemScheduler(String name, @Nullable ThreadFactory threads) {
    this.threads = threads;
    timer = new ScheduledThreadPoolExecutor(TIMER_THREADS, named(name + "-timer"));
    timer.setRemoveOnCancelPolicy(true);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    lanes.put(
        Lane.REPOSITORY,
        lane(name + "-repository", REPOSITORY_THREADS, new LinkedBlockingQueue<>()));
    lanes.put(
        Lane.INTERRUPTS,
        lane(name + "-interrupts", INTERRUPT_THREADS, new LinkedBlockingQueue<>()));
    lanes.put(
        Lane.NOTIFICATIONS,
        lane(name + "-notifications", NOTIFICATION_THREADS, new LinkedBlockingQueue<>()));
    lanes.put(
        Lane.LISTENER,
        lane(name + "-listener", LISTENER_THREADS, new LinkedBlockingQueue<>(LISTENER_QUEUE)));
  }

  private ThreadPoolExecutor lane(String name, int threads, BlockingQueue<Runnable> queue) {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            threads, threads, IDLE_SECONDS, TimeUnit.SECONDS, queue, named(name));
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  /** The user's threads, or daemon threads, named {@code prefix-N}. */
  private ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory made = threads;
    return task -> {
      String name = prefix + "-" + count.incrementAndGet();
      if (made == null) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
      }
      Thread thread = made.newThread(task);
      if (thread == null || thread.getState() != Thread.State.NEW) {
        throw new IllegalStateException(
            "the lease manager's threadFactory must return a new, unstarted thread; it returned "
                + thread);
      }
      thread.setName(name);
      return thread;
    };
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> future;
    try {
      // A negative delay runs at once, as zero does: clamped here, where it was always clamped.
      long delayNanos = Math.max(0, Durations.saturatedNanos(delay));
      future = timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closed) {
      return () -> {}; // closed: nothing runs any more, as with every task not yet started
    }
    return () -> future.cancel(false);
  }

  @Override
  public void execute(Lane lane, Runnable task) {
    try {
      // The constructor gives every lane its threads: only a null lane finds none.
      Objects.requireNonNull(lanes.get(lane), "lane").execute(task);
    } catch (RejectedExecutionException closedOrFull) {
      if (lane == Lane.LISTENER) {
        dropped(); // never the caller's thread: it may be a timer, a round, or a user's close()
      } else {
        task.run(); // after close, notifications and releases still happen
      }
    }
  }

  /** A listener event was dropped: the manager is closed, or its listener is far behind. */
  private void dropped() {
    if (droppedEvents.incrementAndGet() == 1 && !timer.isShutdown()) {
      execute(
          Lane.NOTIFICATIONS,
          () ->
              LOG.log(
                  System.Logger.Level.WARNING,
                  "the lease listener is "
                      + LISTENER_QUEUE
                      + " events behind (it blocks?): later events are dropped"));
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    lanes.values().forEach(ThreadPoolExecutor::shutdown);
  }
}
