/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.SQLiteOpenMode;
import org.sqlite.jdbc4.JDBC4Connection;

/**
 * The connections of one repository: a small pool of sessions, and the anchor.
 *
 * <p>Why a hand-written pool rather than HikariCP: the connections are to a local file, need no
 * validation, keep-alive or eviction, and a repository needs only a handful of them. A pool library
 * would add a dependency and its own housekeeping thread (the library owns no threads), for about
 * forty lines here. How many are borrowed at once is bounded by the caller ({@link Database}).
 *
 * <p>Why an anchor: a {@link StoreIdentity} compares the file at the path with the one opened by
 * inode number, which is sound only while no other file can get that number, that is while the file
 * stays open. The pool may close all its connections (after failures), so one more connection stays
 * open for the repository's life and is never used. It is an SQLite connection, not a Java channel
 * on the file: closing any descriptor of a file drops every POSIX lock the process holds on it, and
 * SQLite holds a shared lock on the database file for as long as a connection is open in WAL mode
 * (seen in {@code /proc/locks}); closing a channel of our own would silently drop the locks of this
 * process's other connections, SQLite's own bookkeeping of descriptors does not.
 *
 * <p>Connections never create the file: a pool that reconnected to a deleted database would
 * otherwise leave an empty file that the next opener refuses. A new connection is checked by {@code
 * checkNew} before it is used, since it was opened by name.
 *
 * <p>Thread-safe.
 */
final class Connections implements AutoCloseable {

  private static final boolean MAC_OS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac");

  /**
   * The page cache of each connection, in KiB (SQLite's default is 2 MiB). A renewal round rewrites
   * a row of every held lease, and with the default cache a round over a table larger than it read
   * most pages again from the operating system (measured on schema 2's row, 18 MiB for 100,000
   * leases: an eighth of the round's CPU). SQLite allocates cache pages only as they are used, so a
   * small database costs no more.
   */
  static final int CACHE_KIB = 32 * 1024;

  /** How a repository's connections open the file. */
  enum Access {
    /** Reads and writes; the default. */
    READ_WRITE,
    /** Reads only, with SQLite's write-ahead log and index ({@code SQLITE_OPEN_READONLY}). */
    READ_ONLY,
    /**
     * Reads only, taking the file as unchangeable ({@code immutable=1}): no locks, no log, no
     * index. For a file in a directory where SQLite can create neither, and where no log is left to
     * read: without it, SQLite cannot open a database in WAL mode at all there.
     */
    IMMUTABLE
  }

  private final Path file;
  private final int maxConnections;
  private final Runnable checkNew;
  private final Access access;

  /**
   * Idle sessions by sync level: a write takes one already at its level, so that an acquire and
   * release cycle on one thread alternates between two connections instead of switching {@code
   * PRAGMA synchronous} twice per cycle. Reads take any.
   */
  private final Map<SyncMode, ConcurrentLinkedDeque<Session>> idle = new EnumMap<>(SyncMode.class);

  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong commits = new AtomicLong();
  private volatile boolean closed;
  private @Nullable Connection anchor; // guarded by this

  Connections(Path file, int maxConnections, Runnable checkNew, Access access) {
    this.access = access;
    this.file = file;
    this.maxConnections = maxConnections;
    this.checkNew = checkNew;
    for (SyncMode mode : SyncMode.values()) {
      idle.put(mode, new ConcurrentLinkedDeque<>());
    }
  }

  /** Opens the anchor; the caller checks afterwards that it is the file it expects. */
  synchronized void pin() throws SQLException {
    if (anchor == null) {
      anchor = connect();
    }
  }

  /** Closes the anchor. */
  void unpin() {
    Connection pinned;
    synchronized (this) {
      pinned = anchor;
      anchor = null;
    }
    if (pinned != null) {
      closeQuietly(pinned);
    }
  }

  /** Takes an idle session, preferably at the given level, or opens a new one. */
  Session take(@Nullable SyncMode mode) throws SQLException {
    SyncMode preferred = mode == null ? SyncMode.NORMAL : mode;
    Session pooled = idle(preferred).pollFirst();
    if (pooled == null && (mode == null || open.get() >= maxConnections)) {
      // At the limit, an idle connection of the other level is switched rather than a new one
      // opened.
      pooled = idle(preferred == SyncMode.FULL ? SyncMode.NORMAL : SyncMode.FULL).pollFirst();
    }
    if (pooled != null) {
      return pooled;
    }
    Session session = new Session(connect(), open, commits);
    open.incrementAndGet();
    try {
      checkNew.run();
      // Not in the connection's configuration: that runs at connect, outside the caller's busy
      // retries, and a pragma reads the schema, which another process may hold locked a moment.
      try (Statement statement = session.connection().createStatement()) {
        statement.execute("PRAGMA cache_size = -" + CACHE_KIB); // negative: KiB, not pages
      }
    } catch (RuntimeException | SQLException e) {
      session.close();
      throw e;
    }
    return session;
  }

  /** Gives a session back to the pool, or closes it if it is not reusable or the pool closed. */
  void giveBack(Session session, boolean reusable) {
    if (!reusable || closed) {
      session.close();
      return;
    }
    Deque<Session> deque = idle(session.mode() == SyncMode.FULL ? SyncMode.FULL : SyncMode.NORMAL);
    deque.offerFirst(session);
    if (closed && deque.remove(session)) {
      session.close(); // closed meanwhile: close() may have drained the deque before our offer
    }
  }

  /** How many transactions sessions of this pool committed. */
  long commits() {
    return commits.get();
  }

  /**
   * Loads the native library and the classes a connection needs, as the first {@link #connect}
   * would: the library's loader is synchronized and loads once.
   */
  static void preload() {
    boolean loaded;
    try {
      loaded = SQLiteJDBCLoader.initialize();
    } catch (Exception | LinkageError e) {
      throw new LeaseRepositoryFailure(
          null, "cannot load SQLite's native library: " + e.getMessage(), e);
    }
    if (!loaded) {
      // sqlite-jdbc logged why; without the library every connection would fail with a raw
      // UnsatisfiedLinkError.
      throw new LeaseRepositoryFailure(
          null,
          "cannot load SQLite's native library (extracting it to "
              + System.getProperty("java.io.tmpdir")
              + " failed; see org.sqlite.tmpdir and org.sqlite.lib.path)",
          null);
    }
    new SQLiteConfig().toProperties();
  }

  /** Opens a connection to the existing file; never creates it (see the class description). */
  private Connection connect() throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.resetOpenMode(SQLiteOpenMode.CREATE);
    if (access == Access.READ_WRITE) {
      config.setOpenMode(SQLiteOpenMode.READWRITE);
    } else {
      config.resetOpenMode(SQLiteOpenMode.READWRITE);
      config.setOpenMode(SQLiteOpenMode.READONLY);
    }
    config.setBusyTimeout(Database.ATTEMPT_BUSY_TIMEOUT_MILLIS);
    if (MAC_OS) {
      // On macOS fsync() leaves data in the drive's cache; F_FULLFSYNC is what survives a power
      // cut. With PRAGMA fullfsync on, SQLite uses it for checkpoints too.
      config.enableFullSync(true);
    }
    String name = file.toString();
    if (access == Access.IMMUTABLE) {
      // Only a URI file name takes the parameter; the path is percent-encoded in it.
      config.setOpenMode(SQLiteOpenMode.OPEN_URI);
      name = "file:" + file.toUri().getRawPath() + "?immutable=1";
    }
    // The file name is passed apart from the URL, so that '?' or '#' in a path are not parsed as
    // URL syntax.
    return new JDBC4Connection("jdbc:sqlite:" + name, name, config.toProperties());
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing more to release
    }
  }

  /** Closes idle sessions and the anchor now; sessions in use are closed when given back. */
  @Override
  public void close() {
    closed = true;
    for (Deque<Session> deque : idle.values()) {
      for (Session session = deque.pollFirst(); session != null; session = deque.pollFirst()) {
        session.close();
      }
    }
    unpin();
  }

  @Override
  public String toString() {
    return "connections open="
        + open.get()
        + ", idle="
        + (idle(SyncMode.FULL).size() + idle(SyncMode.NORMAL).size());
  }

  /** The idle sessions at a sync level: the constructor made a deque for every level. */
  private ConcurrentLinkedDeque<Session> idle(SyncMode mode) {
    return Objects.requireNonNull(idle.get(mode), "mode");
  }
}
