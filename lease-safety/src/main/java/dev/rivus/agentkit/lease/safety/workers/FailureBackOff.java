/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A worker's pause after repository failures: none after a cycle without one, 20 ms after the first
 * in a row, doubling up to 500 ms; one success (or a {@code LeaseHeld}, which also means the store
 * answered) resets it. Without it, a worker whose repository lost its store ({@code StoreLost},
 * every call failing at once by design) retried without pause until the driver restarted it,
 * logging tens of thousands of lines a second.
 *
 * <p>The pause lies between library calls, so no call's deadline covers it, and it is slept in
 * slices of at most {@value #SLICE_MILLIS} ms that look at the stop request, so a worker told to
 * stop stops as fast as without it.
 *
 * <p>Not thread-safe: one per worker thread.
 */
final class FailureBackOff {

  static final Duration FIRST = Duration.ofMillis(20);
  static final Duration MAX = Duration.ofMillis(500);
  static final long SLICE_MILLIS = 20;

  private long nextMillis;
  private boolean failedLast;

  /** A call failed with a repository failure: the next pause is longer. */
  void failed() {
    nextMillis = nextMillis == 0 ? FIRST.toMillis() : Math.min(nextMillis * 2, MAX.toMillis());
    failedLast = true;
  }

  /** A call reached the store: no pause. */
  void succeeded() {
    nextMillis = 0;
    failedLast = false;
  }

  /** The pause due now: 0 unless the last outcome was a failure. */
  long pauseMillis() {
    return failedLast ? nextMillis : 0;
  }

  /**
   * Sleeps the pause due, if any, and returns early once {@code stopping} says so.
   *
   * @return false if interrupted (the flag is set again)
   */
  boolean pause(BooleanSupplier stopping) {
    long until = System.nanoTime() + pauseMillis() * 1_000_000;
    failedLast = false; // one pause per failure
    try {
      for (long left = until - System.nanoTime();
          left > 0 && !stopping.getAsBoolean();
          left = until - System.nanoTime()) {
        Thread.sleep(Math.min(SLICE_MILLIS, Math.max(1, left / 1_000_000)));
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
