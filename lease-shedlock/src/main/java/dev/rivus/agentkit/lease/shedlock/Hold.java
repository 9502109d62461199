/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import dev.rivus.agentkit.lease.Lease;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;

/**
 * One lease a provider took for one lock, from its acquisition to its release: the handle that may
 * unlock or extend it, and the timed end ({@code lockAtMostFor}, or the end of {@code
 * lockAtLeastFor} after an unlock). Thread-safe: its state is guarded by its monitor; the release
 * (a store write) runs outside it, once, and every other caller of {@link #end} waits for it.
 */
final class Hold {

  /** The longest limit counted, about 73 years, so that deadlines never overflow. */
  private static final long MAX_NANOS = Long.MAX_VALUE / 4;

  private final LeaseLockProvider provider;
  private final String key;
  private final CompletableFuture<Void> released = new CompletableFuture<>();

  private @Nullable Lease lease; // set once, by start; null while the lease is being acquired
  private @Nullable LeaseLock current; // the handle that may unlock or extend; null once unlocked
  private @Nullable ScheduledFuture<?> pending; // the timed end
  private boolean ended;

  Hold(LeaseLockProvider provider, String key) {
    this.provider = provider;
    this.key = key;
  }

  String key() {
    return key;
  }

  /** Starts holding {@code lease}: the first handle, its limits counted from {@code fromNanos}. */
  SimpleLock start(Lease lease, LockConfiguration config, long fromNanos) {
    synchronized (this) {
      this.lease = lease;
      if (!ended) {
        return handle(config.getLockAtMostFor(), config.getLockAtLeastFor(), fromNanos);
      }
    }
    lease.close(); // the provider was closed while this lease was being acquired
    return new LeaseLock(this, fromNanos, fromNanos);
  }

  /** Tells whether the lease is, or is being, held: the key is not free to lock again. */
  synchronized boolean isLive() {
    return !ended && (lease == null || lease.isHeld());
  }

  /** The lease while a job holds it: locked, not unlocked, not ended, not lost. */
  synchronized Optional<Lease> runningLease() {
    Lease held = lease;
    return current != null && !ended && held != null && held.isHeld()
        ? Optional.of(held)
        : Optional.empty();
  }

  void unlock(LeaseLock handle) {
    boolean endNow = true;
    synchronized (this) {
      handle.spend();
      if (current == handle) {
        current = null;
        cancelPending();
        long left = handle.atLeastUntil() - System.nanoTime();
        endNow = left <= 0 || !scheduleEnd(left);
      }
    }
    provider.unbind(this);
    if (endNow) {
      end(); // or, if the lease was released at lockAtMostFor, wait until that release is done
    }
  }

  Optional<SimpleLock> extend(LeaseLock handle, Duration lockAtMostFor, Duration lockAtLeastFor) {
    requireLimits(lockAtMostFor, lockAtLeastFor);
    synchronized (this) {
      handle.spend();
      Lease held = lease;
      long now = System.nanoTime();
      if (current == handle
          && !ended
          && held != null
          && held.isHeld()
          && now - handle.atMostUntil() < 0) {
        cancelPending();
        return Optional.of(handle(lockAtMostFor, lockAtLeastFor, now));
      }
      current = null;
    }
    end(); // past lockAtMostFor, or lost: release now rather than at the timer's turn
    return Optional.empty();
  }

  /**
   * Releases the lease, once; a caller that finds the release under way waits until it is done, so
   * that the key is free to lock again when this returns.
   */
  void end() {
    Lease toRelease;
    boolean mine;
    synchronized (this) {
      mine = !ended;
      ended = true;
      current = null;
      cancelPending();
      toRelease = lease;
    }
    if (!mine) {
      released.join();
      return;
    }
    try {
      if (toRelease != null) {
        toRelease.close(); // logs a refused release rather than throwing it
      }
    } finally {
      provider.forget(this);
      released.complete(null);
    }
  }

  /** A new handle whose limits count from {@code fromNanos}, with its timed end. */
  private LeaseLock handle(Duration lockAtMostFor, Duration lockAtLeastFor, long fromNanos) {
    long atMost = nanos(lockAtMostFor);
    LeaseLock handle = new LeaseLock(this, fromNanos + atMost, fromNanos + nanos(lockAtLeastFor));
    current = handle;
    long left = fromNanos + atMost - System.nanoTime();
    // Refused only once the provider is closing; lock() then ends this hold itself.
    scheduleEnd(Math.max(0, left));
    return handle;
  }

  private boolean scheduleEnd(long delayNanos) {
    try {
      pending = provider.timer().schedule(this::end, delayNanos, TimeUnit.NANOSECONDS);
      return true;
    } catch (RejectedExecutionException closing) {
      return false;
    }
  }

  private void cancelPending() {
    ScheduledFuture<?> timed = pending;
    if (timed != null) {
      timed.cancel(false);
      pending = null;
    }
  }

  private static long nanos(Duration duration) {
    return duration.compareTo(Duration.ofNanos(MAX_NANOS)) > 0 ? MAX_NANOS : duration.toNanos();
  }

  private static void requireLimits(Duration lockAtMostFor, Duration lockAtLeastFor) {
    Objects.requireNonNull(lockAtMostFor, "lockAtMostFor");
    Objects.requireNonNull(lockAtLeastFor, "lockAtLeastFor");
    if (lockAtLeastFor.isNegative() || lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
      throw new IllegalArgumentException(
          "lockAtLeastFor must be between zero and lockAtMostFor ("
              + lockAtMostFor
              + "), was "
              + lockAtLeastFor);
    }
  }
}
