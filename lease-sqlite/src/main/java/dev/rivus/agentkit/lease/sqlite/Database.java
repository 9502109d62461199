/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.support.Durations;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Runs units of work against the database file within the busy wait budget: borrows a connection,
 * serializes this process's writers, and retries busy and locked results with a jittered
 * exponential backoff.
 *
 * <p>Why not SQLite's own busy handler: it is neither fair nor reliable across processes (measured:
 * with two processes on one file under {@code synchronous=FULL}, one did 53,219 cycles in 15 s and
 * the other 1, then got {@code SQLITE_BUSY} despite {@code busy_timeout=10000}). Its sleeps grow to
 * 100 ms while the other process takes the lock again within microseconds of releasing it. Here
 * each attempt gets a short {@code busy_timeout} ({@value #ATTEMPT_BUSY_TIMEOUT_MILLIS} ms), then
 * the thread sleeps a random pause that starts at 0.25 ms and doubles up to 8 ms, so a waiting
 * process keeps trying often and processes do not fall into lockstep; when the budget is spent the
 * call fails with a {@link LeaseRepositoryFailure} saying how long it waited and how many attempts
 * it made.
 *
 * <p>Why a fair write gate: threads of one process would otherwise meet only at SQLite's file lock
 * and back off blindly against each other. Queuing them on a fair semaphore first makes writes of
 * one process first come, first served, and leaves only other processes to contend at the file
 * lock.
 *
 * <p>Once opened, every call first checks that the file at the path is still the one opened ({@link
 * StoreIdentity}), every write checks again once it committed (the file may have gone while SQLite
 * waited for its lock), and an SQLite error that means the file is no longer a lease database
 * (corrupt, not a database, its table gone) is reported as the loss of the store too. Once a loss
 * of the store was reported, every later call fails with it: the repository stays unusable ({@link
 * StoreLost}).
 *
 * <p>Thread-safe.
 */
final class Database implements AutoCloseable {

  static final int ATTEMPT_BUSY_TIMEOUT_MILLIS = 2;
  private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(250);
  private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(8);

  private final Path file;
  private final Duration budget;
  private final long budgetNanos;
  private final int maxConnections;
  private final SqliteFailures failures;
  private final Semaphore writeGate = new Semaphore(1, true);
  private final Semaphore permits;
  private final Connections connections;
  private volatile boolean closed;
  private volatile @Nullable StoreIdentity identity;
  private volatile boolean opened;

  /**
   * The first loss of the store this repository reported, once it did: every later call fails with
   * it too. A corrupt file is not corrupt for every statement (a damaged page is read only by the
   * statements that need it, and a connection that still has the page in its cache reads the good
   * copy), so without it a repository that had just said "the store is lost, open a new one" went
   * on granting leases on the damaged file.
   */
  private final AtomicReference<@Nullable StoreLost> lost = new AtomicReference<>();

  /** A unit of work on one connection; may be run again after a busy result. */
  @FunctionalInterface
  interface Work<T extends @Nullable Object> {
    T run(Session session) throws SQLException;
  }

  Database(Path file, SqliteOptions options) {
    this(file, options, Connections.Access.READ_WRITE);
  }

  /** A database whose connections have the given access (see {@link Connections.Access}). */
  Database(Path file, SqliteOptions options, Connections.Access access) {
    this.file = file;
    this.budget = options.busyWait();
    // Never negative (SqliteOptions refuses that); a budget beyond 292 years is the longest.
    this.budgetNanos = Durations.saturatedNanos(options.busyWait());
    this.maxConnections = options.maxConnections();
    this.failures = new SqliteFailures(file);
    this.permits = new Semaphore(maxConnections, true);
    // Opened by name, a new connection is checked to be on the file this repository opened.
    this.connections = new Connections(file, maxConnections, this::checkIdentity, access);
  }

  SqliteFailures failures() {
    return failures;
  }

  /**
   * Opens the anchor connection and fixes the identity every later call is checked against. Runs
   * once, under the opening lock, after the file exists.
   *
   * @throws LeaseRepositoryFailure if the file cannot be opened or was replaced meanwhile
   */
  void anchor(StoreIdentity expected) {
    try {
      connections.pin();
    } catch (SQLException e) {
      throw failures.translate(null, "opening the database", e);
    }
    if (!StoreIdentity.of(file).sameFileAs(expected)) {
      connections.unpin();
      throw StorePath.unusable(file, "it was replaced by another file while being opened");
    }
    identity = expected;
  }

  /**
   * Marks the opening done: from now on, an SQLite error saying that the file is no longer a lease
   * database is reported as {@link dev.rivus.agentkit.lease.StoreLost}, as is a file that vanished.
   */
  void opened() {
    opened = true;
  }

  /**
   * Checks that the file at the path is still the one opened, and that no call found the store lost
   * before.
   *
   * @throws dev.rivus.agentkit.lease.StoreLost if it is not, or one did
   */
  void checkIdentity() {
    StoreLost first = lost.get();
    if (first != null) {
      throw new StoreLost(String.valueOf(first.getMessage()), first);
    }
    StoreIdentity current = identity;
    if (current != null) {
      try {
        current.check();
      } catch (StoreLost gone) {
        throw remember(gone);
      }
    }
  }

  /** Keeps the first loss of the store, so that every later call fails with it. */
  private StoreLost remember(StoreLost loss) {
    if (opened) {
      lost.compareAndSet(null, loss);
    }
    return loss;
  }

  /** How many transactions this repository committed; for tests that count them. */
  long commits() {
    return connections.commits();
  }

  /** Runs read-only work (autocommit statements, no write lock). */
  <T extends @Nullable Object> T read(@Nullable String key, String operation, Work<T> work) {
    long start = System.nanoTime();
    return onConnection(key, operation, null, start, work);
  }

  /**
   * Runs write work, which opens its own {@code BEGIN IMMEDIATE} transaction, at the given sync
   * level, behind this process's write gate.
   */
  <T extends @Nullable Object> T write(
      @Nullable String key, String operation, SyncMode mode, Work<T> work) {
    long start = System.nanoTime();
    try {
      if (!writeGate.tryAcquire(budgetNanos, TimeUnit.NANOSECONDS)) {
        throw failures.busy(
            key,
            operation,
            writeGate.getQueueLength() + " other thread(s) of this process were queued to write",
            System.nanoTime() - start,
            0,
            budget,
            null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failures.interrupted(key, operation, e);
    }
    try {
      return onConnection(key, operation, mode, start, work);
    } finally {
      writeGate.release();
    }
  }

  private <T extends @Nullable Object> T onConnection(
      @Nullable String key, String operation, @Nullable SyncMode mode, long start, Work<T> work) {
    requireOpen();
    checkIdentity();
    borrowPermit(key, operation, start);
    Session session = null;
    boolean reusable = false;
    try {
      int attempts = 0;
      long pause = FIRST_PAUSE_NANOS;
      while (true) {
        attempts++;
        try {
          if (attempts > 1) {
            // The busy wait may be long: a store lost meanwhile (deleted, or found corrupt by
            // another call) must fail this call too, not let it commit on the old file.
            checkIdentity();
          }
          if (session == null) {
            session = connections.take(mode);
          }
          if (mode != null) {
            session.use(mode);
          }
          T result = work.run(session);
          reusable = true;
          if (mode != null) {
            // The check before the attempt cannot see a deletion while SQLite waited for the lock
            // or wrote: a write that committed to a file no longer at the path was lost with it.
            checkIdentity();
          }
          return result;
        } catch (SQLException e) {
          boolean clean = session == null || session.rollbackQuietly();
          if (!SqliteFailures.isBusy(e)) {
            throw translate(key, operation, e);
          }
          if (session != null && !clean) {
            session.close();
            session = null;
          }
          long waited = System.nanoTime() - start;
          if (waited >= budgetNanos) {
            throw failures.busy(
                key,
                operation,
                "another connection kept the database locked (" + e.getMessage() + ")",
                waited,
                attempts,
                budget,
                e);
          }
          pause = backOff(key, operation, pause, budgetNanos - waited);
        } catch (RuntimeException e) {
          // RevisionConflict, or a failure of the work's own judgement: nothing was written.
          reusable = session != null && session.rollbackQuietly();
          throw e;
        }
      }
    } finally {
      giveBack(session, reusable);
    }
  }

  /**
   * Reports a failure as the loss of the store when the file is gone or no longer a lease database,
   * else as what SQLite says.
   */
  private LeaseRepositoryFailure translate(@Nullable String key, String operation, SQLException e) {
    StoreIdentity current = identity;
    if (current != null && opened) {
      String change = current.change();
      if (change != null) {
        return remember(current.lost(change, e));
      }
      if (SqliteFailures.meansNoLeaseDatabase(e)) {
        return remember(
            current.lost(
                "is no longer a lease database ("
                    + failures.explain(e)
                    + ": "
                    + e.getMessage()
                    + ")",
                e));
      }
    }
    return failures.translate(key, operation, e);
  }

  private long backOff(@Nullable String key, String operation, long pause, long remaining) {
    long jittered = pause / 2 + ThreadLocalRandom.current().nextLong(pause);
    try {
      TimeUnit.NANOSECONDS.sleep(Math.min(jittered, remaining));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failures.interrupted(key, operation, e);
    }
    return Math.min(pause * 2, MAX_PAUSE_NANOS);
  }

  private void borrowPermit(@Nullable String key, String operation, long start) {
    long remaining = budgetNanos - (System.nanoTime() - start);
    try {
      if (!permits.tryAcquire(Math.max(0, remaining), TimeUnit.NANOSECONDS)) {
        throw failures.busy(
            key,
            operation,
            "all "
                + maxConnections
                + " connections of this repository stayed in use ("
                + permits.getQueueLength()
                + " thread(s) waiting)",
            System.nanoTime() - start,
            0,
            budget,
            null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failures.interrupted(key, operation, e);
    }
  }

  private void giveBack(@Nullable Session session, boolean reusable) {
    try {
      if (session != null) {
        connections.giveBack(session, reusable);
      }
    } finally {
      permits.release();
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the lease repository on " + file + " is closed");
    }
  }

  /** Closes idle connections and the anchor now, and the others when they are given back. */
  @Override
  public void close() {
    closed = true;
    connections.close();
  }

  @Override
  public String toString() {
    return "Database["
        + file
        + ", "
        + connections
        + ", in use="
        + (maxConnections - permits.availablePermits())
        + ", writers waiting="
        + writeGate.getQueueLength()
        + "]";
  }
}
