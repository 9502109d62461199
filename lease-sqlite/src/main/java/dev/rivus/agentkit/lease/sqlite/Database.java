package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;
import org.sqlite.jdbc4.JDBC4Connection;

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
 * <p>Why a hand-written pool rather than HikariCP: the connections are to a local file, need no
 * validation, keep-alive or eviction, and a repository needs only a handful of them. A pool library
 * would add a dependency and its own housekeeping thread (the library owns no threads), for about
 * forty lines here. Thread-safe.
 */
final class Database implements AutoCloseable {

  private static final boolean MAC_OS =
      System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("mac");

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

  /**
   * Idle connections by sync level: a write takes one already at its level, so that an acquire and
   * release cycle on one thread alternates between two connections instead of switching {@code
   * PRAGMA synchronous} twice per cycle. Reads take any.
   */
  private final Map<SyncMode, ConcurrentLinkedDeque<Session>> idle = new EnumMap<>(SyncMode.class);

  private final AtomicInteger open = new AtomicInteger();
  private volatile boolean closed;

  /** A unit of work on one connection; may be run again after a busy result. */
  @FunctionalInterface
  interface Work<T> {
    T run(Session session) throws SQLException;
  }

  Database(Path file, SqliteOptions options) {
    this.file = file;
    this.budget = options.busyWait();
    this.budgetNanos = saturatedNanos(options.busyWait());
    this.maxConnections = options.maxConnections();
    this.failures = new SqliteFailures(file);
    this.permits = new Semaphore(maxConnections, true);
    for (SyncMode mode : SyncMode.values()) {
      idle.put(mode, new ConcurrentLinkedDeque<>());
    }
  }

  SqliteFailures failures() {
    return failures;
  }

  /** Runs read-only work (autocommit statements, no write lock). */
  <T> T read(@Nullable String key, String operation, Work<T> work) {
    long start = System.nanoTime();
    return onConnection(key, operation, null, start, work);
  }

  /**
   * Runs write work, which opens its own {@code BEGIN IMMEDIATE} transaction, at the given sync
   * level, behind this process's write gate.
   */
  <T> T write(@Nullable String key, String operation, SyncMode mode, Work<T> work) {
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

  private <T> T onConnection(
      @Nullable String key, String operation, @Nullable SyncMode mode, long start, Work<T> work) {
    requireOpen();
    borrowPermit(key, operation, start);
    Session session = null;
    boolean reusable = false;
    try {
      int attempts = 0;
      long pause = FIRST_PAUSE_NANOS;
      while (true) {
        attempts++;
        try {
          if (session == null) {
            session = openSession(mode);
          }
          if (mode != null) {
            session.use(mode);
          }
          T result = work.run(session);
          reusable = true;
          return result;
        } catch (SQLException e) {
          boolean clean = session == null || session.rollbackQuietly();
          if (!SqliteFailures.isBusy(e)) {
            throw failures.translate(key, operation, e);
          }
          if (!clean) {
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

  private Session openSession(@Nullable SyncMode mode) throws SQLException {
    SyncMode preferred = mode == null ? SyncMode.NORMAL : mode;
    Session pooled = idle.get(preferred).pollFirst();
    if (pooled == null && (mode == null || open.get() >= maxConnections)) {
      // At the limit, an idle connection of the other level is switched rather than a new one
      // opened.
      pooled = idle.get(preferred == SyncMode.FULL ? SyncMode.NORMAL : SyncMode.FULL).pollFirst();
    }
    if (pooled != null) {
      return pooled;
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setOpenMode(SQLiteOpenMode.READWRITE);
    config.setOpenMode(SQLiteOpenMode.CREATE);
    config.setBusyTimeout(ATTEMPT_BUSY_TIMEOUT_MILLIS);
    if (MAC_OS) {
      // On macOS fsync() leaves data in the drive's cache; F_FULLFSYNC is what survives a power
      // cut.
      // With PRAGMA fullfsync on, SQLite uses it for checkpoints too.
      config.enableFullSync(true);
    }
    Properties properties = config.toProperties();
    String name = file.toString();
    // The file name is passed apart from the URL, so that '?' or '#' in a path are not parsed as
    // URL syntax.
    Session session =
        new Session(new JDBC4Connection("jdbc:sqlite:" + name, name, properties), open);
    open.incrementAndGet();
    return session;
  }

  private void giveBack(@Nullable Session session, boolean reusable) {
    try {
      if (session != null) {
        if (reusable && !closed) {
          Deque<Session> deque =
              idle.get(session.mode() == SyncMode.FULL ? SyncMode.FULL : SyncMode.NORMAL);
          deque.offerFirst(session);
          if (closed && deque.remove(session)) {
            session
                .close(); // closed meanwhile: close() may have drained the deque before our offer
          }
        } else {
          session.close();
        }
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

  /** Closes idle connections now and the others when they are given back. */
  @Override
  public void close() {
    closed = true;
    for (Deque<Session> deque : idle.values()) {
      for (Session session = deque.pollFirst(); session != null; session = deque.pollFirst()) {
        session.close();
      }
    }
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public String toString() {
    return "Database["
        + file
        + ", connections open="
        + open.get()
        + ", in use="
        + (maxConnections - permits.availablePermits())
        + ", idle="
        + (idle.get(SyncMode.FULL).size() + idle.get(SyncMode.NORMAL).size())
        + ", writers waiting="
        + writeGate.getQueueLength()
        + "]";
  }

  static LeaseRepositoryFailure unusable(Path file, String why, @Nullable Throwable cause) {
    return new LeaseRepositoryFailure(
        null, "cannot open lease database " + file + ": " + why, cause);
  }
}
