/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The threads of one contract test: daemon threads, interrupted and awaited when the test ends, so
 * a test that fails while a thread waits for a key lock leaves nothing behind.
 */
final class Workers implements AutoCloseable {

  private final AtomicInteger count = new AtomicInteger();
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "contract-worker-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  <T extends @Nullable Object> Future<T> submit(Callable<T> task) {
    return pool.submit(task);
  }

  /**
   * Waits for a task's result.
   *
   * @throws AssertionError if it does not finish within {@code timeout}, naming {@code what}
   * @throws Exception the task's own failure
   */
  static <T extends @Nullable Object> T await(Future<T> future, Duration timeout, String what)
      throws Exception {
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(what + " did not finish within " + timeout, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw e;
    }
  }

  /** Interrupts the threads and waits for them to end. */
  @Override
  public void close() {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new AssertionError(
            "contract worker threads did not stop within 30 s of an interrupt");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
