/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * When {@code lease run} itself is asked to stop (SIGTERM, SIGINT, SIGHUP), stops its command first
 * and then gives the main thread time to release the lease before the JVM halts.
 *
 * <p>Install it before acquiring; start the command through {@link
 * #startUnlessShuttingDown(Supplier)}; {@link #close()} after the lease is released, which also
 * removes the hook when the JVM is not shutting down.
 */
final class ShutdownHook implements AutoCloseable {

  /** Time left to the main thread for releasing the lease once the command is gone. */
  private static final Duration RELEASE_TIME = Duration.ofSeconds(10);

  private final ChildTerminator terminator;
  private final CountDownLatch released = new CountDownLatch(1);
  private final Thread thread = new Thread(this::onShutdown, "lease-shutdown");
  private final Object lock = new Object();
  private @Nullable Process child; // guarded by lock
  private boolean shuttingDown; // guarded by lock

  private ShutdownHook(ChildTerminator terminator) {
    this.terminator = terminator;
  }

  static ShutdownHook install(ChildTerminator terminator) {
    ShutdownHook hook = new ShutdownHook(terminator);
    Runtime.getRuntime().addShutdownHook(hook.thread);
    return hook;
  }

  /**
   * Starts the command and watches it, unless the shutdown has begun: a command started after the
   * hook looked would run on unstopped, and unfenced once the lease is gone. Starting happens under
   * the hook's lock, so the hook waits for a start in progress and then stops that command.
   *
   * @param start starts the command
   * @return the started command, or empty if {@code lease} is shutting down
   */
  Optional<Process> startUnlessShuttingDown(Supplier<Process> start) {
    synchronized (lock) {
      if (shuttingDown) {
        return Optional.empty();
      }
      child = start.get();
      return Optional.of(child);
    }
  }

  /** Marks the shutdown as begun; returns the command started before, if any. */
  @Nullable Process beginShutdown() {
    synchronized (lock) {
      shuttingDown = true;
      return child;
    }
  }

  private void onShutdown() {
    Process watched = beginShutdown();
    if (watched == null) {
      return; // nothing to stop; a lease still held expires (at once where /proc shows us gone)
    }
    try {
      terminator.terminate(watched);
      released.await(RELEASE_TIME.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    released.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(thread);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or about to: it finds the lease released and returns
    }
  }
}
