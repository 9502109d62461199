/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.support.Durations;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A monotonic clock, and waiting on it. A lease manager measures every TTL, heartbeat and wait on
 * its ticker, never on the wall clock, so that no wall-clock jump moves an expiry or a takeover.
 *
 * <p>Implementations are thread-safe. {@link #system()} is {@link System#nanoTime()}; a fake ticker
 * (for example the testkit's {@code FakePlatform}) moves only when a test says so, and its {@link
 * #sleep} advances it instead of waiting.
 */
@FunctionalInterface
public interface Ticker {

  /**
   * Returns the system ticker, {@link System#nanoTime()}.
   *
   * @return the system ticker
   */
  static Ticker system() {
    return SystemTicker.INSTANCE;
  }

  /**
   * Returns monotonic time in nanoseconds, for measuring durations only: its origin is arbitrary.
   *
   * @return the current value of the monotonic clock
   */
  long nanoTime();

  /**
   * Waits for {@code duration} of this ticker's time. The default waits in real time, which is
   * right for any ticker that moves with real time.
   *
   * @param duration how long to wait; zero or negative returns at once
   * @throws InterruptedException if the thread was interrupted while waiting
   */
  default void sleep(Duration duration) throws InterruptedException {
    if (!duration.isNegative() && !duration.isZero()) {
      TimeUnit.NANOSECONDS.sleep(Durations.saturatedNanos(duration));
    }
  }

  /**
   * Waits for {@code duration} of this ticker's time as {@link #sleep} does, or until {@code
   * signal} comes, whichever is first. The default awaits the signal in real time, which is right
   * for any ticker that moves with real time; a fake ticker asks the signal without waiting, moves
   * its time, and asks again.
   *
   * @param duration how long to wait at most
   * @param signal what ends the wait early
   * @return whether the signal came
   * @throws InterruptedException if the thread was interrupted while waiting
   */
  default boolean sleepUntil(Duration duration, Signal signal) throws InterruptedException {
    return signal.await(duration.isNegative() ? Duration.ZERO : duration);
  }

  /**
   * Something a thread can wait for in real time, such as a key's release ({@code
   * LeaseRepository.KeyWatch#awaitRelease}).
   */
  @FunctionalInterface
  interface Signal {
    /**
     * Waits for the signal at most {@code timeout} in real time.
     *
     * @param timeout the longest to wait; zero asks without waiting
     * @return whether the signal came
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    boolean await(Duration timeout) throws InterruptedException;
  }
}
