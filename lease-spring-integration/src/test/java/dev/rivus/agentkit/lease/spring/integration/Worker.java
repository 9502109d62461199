/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One thread of its own, for a test's second party: a lock is a thread's, so every step of one
 * party runs on its worker. Closing it interrupts the thread and waits for it to end.
 */
final class Worker implements AutoCloseable {

  private final AtomicReference<Thread> thread = new AtomicReference<>();
  private final ExecutorService executor;

  Worker(String name) {
    executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread t = new Thread(runnable, name);
              t.setDaemon(true);
              thread.set(t);
              return t;
            });
    // Start the thread now, so that thread() names it before the first step.
    try {
      executor.submit(() -> {}).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs a step on the worker's thread. */
  <T> Future<T> submit(Callable<T> step) {
    return executor.submit(step);
  }

  /** Runs a step on the worker's thread and waits for its result, at most 30 s. */
  <T> T call(Callable<T> step) throws Exception {
    return submit(step).get(30, TimeUnit.SECONDS);
  }

  Thread thread() {
    return thread.get();
  }

  /** Whether the worker's thread is parked or sleeping: waiting for a lock or a lease. */
  boolean isWaiting() {
    Thread.State state = thread().getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }

  @Override
  public void close() throws InterruptedException {
    executor.shutdownNow();
    if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
      throw new AssertionError(thread() + " did not end within 30 s");
    }
  }
}
