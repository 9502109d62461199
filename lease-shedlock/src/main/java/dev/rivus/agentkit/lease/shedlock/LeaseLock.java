/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One handle on a {@link Hold}: the lock {@link LeaseLockProvider#lock} or {@link #extend}
 * returned. Usable once, to unlock or to extend. Thread-safe: its state is guarded by its hold's
 * monitor.
 */
final class LeaseLock implements SimpleLock {

  private final Hold hold;
  private final long atMostUntil;
  private final long atLeastUntil;
  private boolean spent; // guarded by hold

  LeaseLock(Hold hold, long atMostUntil, long atLeastUntil) {
    this.hold = hold;
    this.atMostUntil = atMostUntil;
    this.atLeastUntil = atLeastUntil;
  }

  @Override
  public void unlock() {
    hold.unlock(this);
  }

  @Override
  public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
    return hold.extend(this, lockAtMostFor, lockAtLeastFor);
  }

  /** When {@code lockAtMostFor} ends, on {@link System#nanoTime()}. */
  long atMostUntil() {
    return atMostUntil;
  }

  /** When {@code lockAtLeastFor} ends, on {@link System#nanoTime()}. */
  long atLeastUntil() {
    return atLeastUntil;
  }

  /** Uses the handle up; called holding the hold's monitor. */
  void spend() {
    if (spent) {
      throw new IllegalStateException(
          "lock '"
              + hold.key()
              + "' was already unlocked or extended; use the lock extend returned");
    }
    spent = true;
  }
}
