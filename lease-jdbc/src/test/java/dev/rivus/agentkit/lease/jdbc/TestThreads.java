/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.util.concurrent.Executor;

/**
 * Where the tests run their asynchronous steps: a thread of its own for each. The tests' steps
 * block (on latches, locks, the network), and the default executor of {@code CompletableFuture} is
 * the common pool, which on a two-core machine has one thread on some JDKs: a step would then wait
 * behind the one it is meant to run beside.
 */
final class TestThreads {

  /** Runs each task on a new daemon thread. */
  static final Executor EACH =
      task -> {
        Thread thread = new Thread(task, "lease-jdbc-test-step");
        thread.setDaemon(true);
        thread.start();
      };

  private TestThreads() {}
}
