package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.nio.file.Path;
import java.sql.Connection;
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
import java.util.concurrent.atomic.AtomicLong;
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
 * forty lines here.
 *
 * <p>Why an anchor connection: a {@link StoreIdentity} compares the file at the path with the one
 * opened by inode number, which is sound only while no other file can get that number, that is
 * while the file stays open. The pool may close all its connections (after failures), so one more
 * connection stays open for the repository's life and is never used. It is an SQLite connection,
 * not a Java channel on the file: closing any descriptor of a file drops every POSIX lock the
 * process holds on it, and SQLite holds a shared lock on the database file for as long as a
 * connection is open in WAL mode (seen in {@code /proc/locks}); closing a channel of our own would
 * silently drop the locks of this process's other connections, SQLite's own bookkeeping of
 * descriptors does not. Connections opened after the anchor never create the file: a pool that
 * reconnected to a deleted database would otherwise leave an empty file that the next opener
 * refuses.
 *
 * <p>Thread-safe.
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
  private final AtomicLong commits = new AtomicLong();
  private volatile boolean closed;
  private volatile @Nullable StoreIdentity identity;
  private volatile boolean opened;
  private @Nullable Connection anchor; // guarded by this

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

  /**
   * Opens the anchor connection and fixes the identity every later call is checked against. Runs
   * once, under the opening lock, after the file exists.
   *
   * @throws LeaseRepositoryFailure if the file cannot be opened or was replaced meanwhile
   */
  void anchor(StoreIdentity expected) {
    Connection connection;
    try {
      connection = connect();
    } catch (SQLException e) {
      throw failures.translate(null, "opening the database", e);
    }
    if (!StoreIdentity.of(file).sameFileAs(expected)) {
      closeQuietly(connection);
      throw StorePath.unusable(file, "it was replaced by another file while being opened");
    }
    synchronized (this) {
      anchor = connection;
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
   * Checks that the file at the path is still the one opened.
   *
   * @throws dev.rivus.agentkit.lease.StoreLost if it is not
   */
  void checkIdentity() {
    StoreIdentity current = identity;
    if (current != null) {
      current.check();
    }
  }

  /** How many transactions this repository committed; for tests that count them. */
  long commits() {
    return commits.get();
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
            throw translate(key, operation, e);
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

  /**
   * Reports a failure as the loss of the store when the file is gone or no longer a lease database,
   * else as what SQLite says.
   */
  private LeaseRepositoryFailure translate(@Nullable String key, String operation, SQLException e) {
    StoreIdentity current = identity;
    if (current != null && opened) {
      String change = current.change();
      if (change != null) {
        return current.lost(change, e);
      }
      if (SqliteFailures.meansNoLeaseDatabase(e)) {
        return current.lost(
            "is no longer a lease database (" + failures.explain(e) + ": " + e.getMessage() + ")",
            e);
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
    Session session = new Session(connect(), open, commits);
    open.incrementAndGet();
    try {
      checkIdentity(); // opened by name: make sure it is still the file this repository opened
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
    return session;
  }

  /** Opens a connection to the existing file; never creates it (see the class description). */
  private Connection connect() throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.resetOpenMode(SQLiteOpenMode.CREATE);
    config.setOpenMode(SQLiteOpenMode.READWRITE);
    config.setBusyTimeout(ATTEMPT_BUSY_TIMEOUT_MILLIS);
    if (MAC_OS) {
      // On macOS fsync() leaves data in the drive's cache; F_FULLFSYNC is what survives a power
      // cut. With PRAGMA fullfsync on, SQLite uses it for checkpoints too.
      config.enableFullSync(true);
    }
    Properties properties = config.toProperties();
    String name = file.toString();
    // The file name is passed apart from the URL, so that '?' or '#' in a path are not parsed as
    // URL syntax.
    return new JDBC4Connection("jdbc:sqlite:" + name, name, properties);
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing more to release
    }
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

  /** Closes idle connections and the anchor now, and the others when they are given back. */
  @Override
  public void close() {
    closed = true;
    for (Deque<Session> deque : idle.values()) {
      for (Session session = deque.pollFirst(); session != null; session = deque.pollFirst()) {
        session.close();
      }
    }
    Connection pinned;
    synchronized (this) {
      pinned = anchor;
      anchor = null;
    }
    if (pinned != null) {
      closeQuietly(pinned);
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
}
