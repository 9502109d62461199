/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Makes the scheduler of each new lease manager: its timer and the threads of its lanes (see {@link
 * LeaseScheduler}). Implementations are thread-safe.
 */
@FunctionalInterface
public interface SchedulerFactory {

  /**
   * Returns the default: daemon threads named after the manager, started when work arrives and
   * stopped after a minute idle; at most seven per manager.
   *
   * @return the default scheduler factory
   */
  static SchedulerFactory system() {
    return name -> new SystemScheduler(name, null);
  }

  /**
   * Returns a factory whose schedulers make their threads with {@code threads}, for example to set
   * their priority, context class loader or uncaught-exception handler. Each thread is renamed
   * after its manager and lane, for thread dumps; whether it is a daemon is up to {@code threads},
   * and a thread that is not keeps the JVM alive until it has been idle for a minute or its manager
   * is closed.
   *
   * @param threads makes the threads; it must make a new, unstarted thread on every call (else the
   *     acquisition that needed the thread fails with {@link IllegalStateException}), quickly and
   *     without blocking, since a manager's own threads, its timer included, may ask for one
   * @return a scheduler factory
   * @throws NullPointerException if {@code threads} is null
   */
  static SchedulerFactory threads(ThreadFactory threads) {
    Objects.requireNonNull(threads, "threads");
    return name -> new SystemScheduler(name, threads);
  }

  /**
   * Starts a scheduler for one lease manager. The caller closes it.
   *
   * @param name the manager's thread-name prefix, for thread dumps
   * @return the new scheduler
   */
  LeaseScheduler newScheduler(String name);
}
