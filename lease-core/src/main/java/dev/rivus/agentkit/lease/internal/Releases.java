/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseException;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Writes tombstones: when a lease is closed, when its manager closes (all in one batch), and when
 * an acquisition must be undone. A release runs on the manager's repository lane while the closing
 * thread waits without being interruptible: try-with-resources often closes on a thread whose
 * interrupt flag was just restored, or from the lease's own interrupted work, and an interrupt that
 * reached the repository call itself (a file channel closed by it, a backoff cut short) would leave
 * the record held, so that everyone waits out the TTL. The closing thread's interrupt is kept.
 */
final class Releases {

  private static final int RELEASE_ATTEMPTS = 3;

  private final ManagerParts parts;

  /** Tells the manager that a lease of a closing manager ended: rounds no longer visit it. */
  private final Consumer<ManagedLease> forget;

  Releases(ManagerParts parts, Consumer<ManagedLease> forget) {
    this.parts = parts;
    this.forget = forget;
  }

  /**
   * Releases one closed lease's record if it is still ours; waits for it, never throws. A lease
   * that was still held is released on the calling thread; one that expired (its repository was in
   * trouble, and may hang) on the lane, waiting at most a TTL.
   */
  void release(ManagedLease lease, boolean wasHeld) {
    if (!wasHeld) {
      onRepositoryLane(
          "lease '" + lease.key() + "'",
          () -> warnIfFailed(lease.current(), releaseIfOurs(lease.current())));
      return;
    }
    boolean interrupted = Thread.interrupted();
    try {
      RuntimeException failure = releaseIfOurs(lease.current());
      if (failure == null) {
        return;
      }
      if (Thread.interrupted()) {
        interrupted = true; // an interrupt reached the call: try again where none can
        onRepositoryLane(
            "lease '" + lease.key() + "'",
            () -> warnIfFailed(lease.current(), releaseIfOurs(lease.current())));
      } else {
        warnNotReleased(lease.current(), failure);
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Closes every lease of a closing manager and releases their records in one batch. */
  void closeAll(List<ManagedLease> leases) {
    List<ManagedLease> toRelease = new ArrayList<>();
    for (ManagedLease lease : leases) {
      if (lease.markClosed() != ManagedLease.Closing.NOTHING_TO_RELEASE) {
        toRelease.add(lease);
      }
      forget.accept(lease);
    }
    if (!toRelease.isEmpty()) {
      onRepositoryLane(toRelease.size() + " lease(s)", () -> releaseAll(toRelease));
    }
  }

  private void releaseAll(List<ManagedLease> leases) {
    // current(), read again after a conflict: the lease was renewed meanwhile
    writeTombstones(leases.size(), i -> leases.get(i).current(), "of a closing manager");
  }

  /**
   * Writes the tombstones of {@code count} records in one batch, and judges each that conflicted
   * again on its own. {@code mine} gives the record of each as this manager knows it; it is asked
   * again after a conflict, so that a lease renewed meanwhile is released at its new revision.
   */
  private void writeTombstones(int count, IntFunction<LeaseSnapshot> mine, String whose) {
    List<LeaseWrite> writes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      writes.add(mine.apply(i).release(parts.wallClock().instant()));
    }
    List<SaveOutcome> outcomes;
    try {
      outcomes = parts.repository().saveAll(writes);
    } catch (RuntimeException failure) {
      parts
          .warnings()
          .warn(
              "could not release "
                  + count
                  + " lease(s) "
                  + whose
                  + "; they will expire after the TTL",
              failure);
      return;
    }
    for (int i = 0; i < outcomes.size(); i++) {
      LeaseException failure = outcomes.get(i).failure();
      if (failure == null) {
        parts.ownTombstones().written(writes.get(i).snapshot());
      } else if (failure instanceof RevisionConflict) {
        warnIfFailed(mine.apply(i), releaseIfOurs(mine.apply(i)));
      } else {
        warnNotReleased(mine.apply(i), failure);
      }
    }
  }

  /**
   * A save reported as failed may still have landed (a write whose directory sync failed, a commit
   * whose answer was lost): then a record names a handle nobody holds, and everyone, this manager
   * included, would wait a TTL for it. Release it at once if so; best effort, never throws.
   */
  void releaseIfWritten(LeaseWrite attempted, LeaseRepositoryFailure failure) {
    onRepositoryLane(
        "lease '" + attempted.key() + "'",
        () -> {
          try {
            Optional<LeaseSnapshot> stored = parts.repository().load(attempted.key());
            if (stored.isPresent() && stored.get().equals(attempted.snapshot())) {
              parts.repository().save(attempted.snapshot().release(parts.wallClock().instant()));
            }
          } catch (LeaseException stillFailing) {
            failure.addSuppressed(stillFailing);
          }
        });
  }

  /**
   * As {@link #releaseIfWritten}, for a batch whose write failed as a whole: one read of the keys,
   * one batch of tombstones for the records found as attempted.
   */
  void releaseAllIfWritten(List<LeaseWrite> attempted, LeaseRepositoryFailure failure) {
    onRepositoryLane(
        attempted.size() + " lease(s)",
        () -> {
          try {
            List<String> keys = new ArrayList<>(attempted.size());
            attempted.forEach(write -> keys.add(write.key()));
            Map<String, LeaseSnapshot> stored = parts.repository().loadAll(keys);
            List<LeaseWrite> tombstones = new ArrayList<>();
            for (LeaseWrite write : attempted) {
              if (write.snapshot().equals(stored.get(write.key()))) {
                tombstones.add(write.snapshot().release(parts.wallClock().instant()));
              }
            }
            if (!tombstones.isEmpty()) {
              parts.repository().saveAll(tombstones); // a conflict: someone else's record now
            }
          } catch (LeaseException stillFailing) {
            failure.addSuppressed(stillFailing);
          }
        });
  }

  /** Undoes acquisitions that were written but will not be handed out, in one batch. */
  void releaseAllQuietly(List<LeaseSnapshot> acquired) {
    if (acquired.isEmpty()) {
      return;
    }
    onRepositoryLane(
        acquired.size() + " lease(s)",
        () -> writeTombstones(acquired.size(), acquired::get, "just acquired"));
  }

  /** Undoes an acquisition that was written but will not be handed out. */
  void releaseQuietly(LeaseSnapshot acquired) {
    onRepositoryLane(
        "lease '" + acquired.key() + "'", () -> warnIfFailed(acquired, releaseIfOurs(acquired)));
  }

  /**
   * Writes the tombstone if the record is still the one {@code mine} names.
   *
   * @return null once released, or found no longer ours; else the failure that stopped it
   */
  private @Nullable RuntimeException releaseIfOurs(LeaseSnapshot mine) {
    LeaseSnapshot current = mine;
    for (int attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
      try {
        LeaseWrite release = current.release(parts.wallClock().instant());
        parts.repository().save(release);
        parts.ownTombstones().written(release.snapshot());
        return null;
      } catch (RevisionConflict conflict) {
        Optional<LeaseSnapshot> stored;
        try {
          stored = parts.repository().load(mine.key());
        } catch (StoreLost lost) {
          return null; // the store is gone, and the record with it
        } catch (RuntimeException failure) {
          return failure;
        }
        if (stored.isEmpty() || !isSameHold(mine, stored.get())) {
          return null; // taken over or gone meanwhile: nothing of ours to release
        }
        current = stored.get();
      } catch (StoreLost lost) {
        return null;
      } catch (RuntimeException failure) {
        return failure;
      }
    }
    return null; // renewed three times under us: a round still runs; the record expires if so
  }

  private void warnIfFailed(LeaseSnapshot mine, @Nullable RuntimeException failure) {
    if (failure != null) {
      warnNotReleased(mine, failure);
    }
  }

  private static boolean isSameHold(LeaseSnapshot mine, LeaseSnapshot stored) {
    return stored.isHeld()
        && stored.generation() == mine.generation()
        && stored.holder().equals(mine.holder());
  }

  private void warnNotReleased(LeaseSnapshot mine, Throwable failure) {
    parts
        .warnings()
        .warn(
            "could not release lease '"
                + mine.key()
                + "' generation "
                + mine.generation()
                + "; it will expire after the TTL",
            failure);
  }

  /**
   * Runs a release on the repository lane and waits for it, at most a TTL (by then the record has
   * expired anyway; the release goes on in the background), without being interruptible.
   */
  private void onRepositoryLane(String what, Runnable release) {
    CountDownLatch done = new CountDownLatch(1);
    parts
        .scheduler()
        .execute(
            Lane.REPOSITORY,
            () -> {
              try {
                release.run();
              } finally {
                done.countDown();
              }
            });
    long waitNanos = parts.timing().config().ttl().toNanos();
    if (!awaitUninterruptibly(done, waitNanos)) {
      parts
          .warnings()
          .warn(
              "the release of "
                  + what
                  + " did not finish within the TTL; it goes on in the background",
              null);
    }
  }

  private static boolean awaitUninterruptibly(CountDownLatch latch, long nanos) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + nanos;
    try {
      while (true) {
        try {
          return latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
