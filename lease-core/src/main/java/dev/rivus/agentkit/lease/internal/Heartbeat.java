package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Platform;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Renews one lease every heartbeat, retries failed renewals, and declares the lease lost once the
 * TTL has passed since the start of the last successful renewal: by then another process may take
 * it over, so the holder must already have stopped.
 *
 * <p>Timers only hand work to the scheduler's workers; the expiry timer never waits for a renewal,
 * so a repository call that hangs cannot keep a lease alive past its TTL.
 */
final class Heartbeat {

  private static final Duration MAX_SAFETY_MARGIN = Duration.ofSeconds(1);

  private final ManagedLease lease;
  private final Platform platform;
  private final LeaseScheduler scheduler;
  private final Duration lossAfter;
  private final Duration interval;
  private final Duration retryInterval;
  private LeaseScheduler.@Nullable Cancellable nextRenewal; // guarded by this
  private LeaseScheduler.@Nullable Cancellable expiry; // guarded by this
  private long lastSuccessStartNanos; // guarded by this
  private @Nullable RuntimeException lastFailure; // guarded by this
  private boolean stopped; // guarded by this

  Heartbeat(
      ManagedLease lease,
      Platform platform,
      LeaseScheduler scheduler,
      Duration ttl,
      Duration interval) {
    this.lease = lease;
    this.platform = platform;
    this.scheduler = scheduler;
    this.lossAfter = ttl.minus(safetyMargin(ttl));
    this.interval = interval;
    // Room for several retries inside the TTL, without hammering a struggling repository.
    this.retryInterval = max(Duration.ofMillis(1), interval.dividedBy(4));
  }

  /**
   * How much sooner than the TTL the holder gives up: observers start counting the TTL only when
   * they first read the renewal, but the holder's own timer may fire late (a busy scheduler, a
   * collection pause) and interrupted work needs a moment to stop.
   */
  static Duration safetyMargin(Duration ttl) {
    Duration tenth = ttl.dividedBy(10);
    return tenth.compareTo(MAX_SAFETY_MARGIN) < 0 ? tenth : MAX_SAFETY_MARGIN;
  }

  /** Starts renewing; {@code acquiredAtNanos} is when the acquiring write started. */
  synchronized void start(long acquiredAtNanos) {
    succeeded(acquiredAtNanos);
    scheduleRenewal(interval);
  }

  /** Stops all timers; a renewal already running finishes but schedules nothing. */
  synchronized void stop() {
    stopped = true;
    cancel(nextRenewal);
    cancel(expiry);
  }

  private void scheduleRenewal(Duration delay) {
    if (!stopped) {
      nextRenewal = scheduler.schedule(delay, () -> scheduler.execute(this::renew));
    }
  }

  private void renew() {
    lease.writeLock().lock();
    try {
      if (!lease.isHeld()) {
        return;
      }
      long start = platform.nanoTime();
      LeaseSnapshot current = lease.current();
      LeaseSnapshot next = current.renewed(platform.now());
      try {
        lease.repository().save(lease.key(), next, current.revision());
        lease.wrote(next);
        synchronized (this) {
          succeeded(start);
          scheduleRenewal(interval);
        }
      } catch (RevisionConflict conflict) {
        reconcile(conflict);
      } catch (RuntimeException failure) {
        failed(failure);
      }
    } finally {
      lease.writeLock().unlock();
    }
  }

  /** Someone else wrote the record: adopt it if it is still ours, else the lease was taken over. */
  private void reconcile(RevisionConflict conflict) {
    Optional<LeaseSnapshot> stored;
    try {
      stored = lease.repository().load(lease.key());
    } catch (RuntimeException failure) {
      failure.addSuppressed(conflict);
      failed(failure);
      return;
    }
    if (stored.isPresent() && lease.isOwnRecord(stored.get())) {
      // Our own earlier write landed although the call reported a failure: carry on from it.
      lease.wrote(stored.get());
      synchronized (this) {
        scheduleRenewal(retryInterval);
      }
      return;
    }
    lease.lose(LeaseLost.Reason.TAKEN_OVER, stored.orElse(null), null);
  }

  private synchronized void failed(RuntimeException failure) {
    lastFailure = failure;
    scheduleRenewal(retryInterval);
  }

  private void succeeded(long startNanos) {
    lastSuccessStartNanos = startNanos;
    lastFailure = null;
    cancel(expiry);
    if (!stopped) {
      Duration left = lossAfter.minusNanos(platform.nanoTime() - startNanos);
      expiry = scheduler.schedule(left, this::expire);
    }
  }

  private void expire() {
    RuntimeException cause;
    synchronized (this) {
      if (stopped || platform.nanoTime() - lastSuccessStartNanos < lossAfter.toNanos()) {
        return;
      }
      cause = lastFailure;
    }
    lease.lose(LeaseLost.Reason.EXPIRED, null, cause);
  }

  private static void cancel(LeaseScheduler.@Nullable Cancellable task) {
    if (task != null) {
      task.cancel();
    }
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
