package dev.rivus.agentkit.lease.platform;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** One timer thread plus a cached pool of daemon threads for blocking work. */
final class SystemScheduler implements LeaseScheduler {

  private final ScheduledThreadPoolExecutor timer;
  private final ExecutorService workers;

  SystemScheduler(String name) {
    timer = new ScheduledThreadPoolExecutor(1, daemonThreads(name + "-timer"));
    timer.setRemoveOnCancelPolicy(true);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    workers = Executors.newCachedThreadPool(daemonThreads(name + "-io"));
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> future;
    try {
      future = timer.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closed) {
      return () -> {}; // closed: nothing runs any more, as with every task not yet started
    }
    return () -> future.cancel(false);
  }

  @Override
  public void execute(Runnable task) {
    try {
      workers.execute(task);
    } catch (RejectedExecutionException closed) {
      task.run(); // after close, loss notifications still reach their listeners
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    workers.shutdown();
  }
}
