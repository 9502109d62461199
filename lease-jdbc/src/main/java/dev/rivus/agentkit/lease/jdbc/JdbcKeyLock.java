/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseRepository.KeyLock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * A key lock: a session advisory lock held on a connection of its own until closed. The database
 * releases it when the session ends, so a dropped connection (or a killed backend) loses it, which
 * {@link #isHeld()} tells by asking the connection whether it is still valid. The session is
 * bounded in silence ({@link Dialect#boundSilence}): the server ends it once nobody asked for that
 * long, and asking ({@code isValid} sends the server an empty query or a ping) keeps it alive.
 */
final class JdbcKeyLock implements KeyLock {

  /** The longest pause between two attempts to take a contended key lock. */
  private static final long MAX_BACKOFF_MILLIS = 50;

  /** How long {@link #isHeld()} waits for the database to answer. */
  private static final int VALIDITY_TIMEOUT_SECONDS = 2;

  private final Connection connection;
  private final Dialect dialect;
  private final long lockId;
  private final long backendPid;
  private final NetworkBound bound;
  private final Dialect.SessionSettings settings;
  private final Runnable onClose;
  private final Object guard = new Object();
  private boolean closed;

  private JdbcKeyLock(
      Connection connection,
      Dialect dialect,
      long lockId,
      long backendPid,
      NetworkBound bound,
      Dialect.SessionSettings settings,
      Runnable onClose) {
    this.connection = connection;
    this.dialect = dialect;
    this.lockId = lockId;
    this.backendPid = backendPid;
    this.bound = bound;
    this.settings = settings;
    this.onClose = onClose;
  }

  /**
   * Takes the advisory lock on {@code connection}, trying again with a growing pause (up to {@value
   * #MAX_BACKOFF_MILLIS} ms) while another session holds it. Polling rather than a blocking {@code
   * pg_advisory_lock} or {@code GET_LOCK} with a timeout keeps the wait interruptible and never
   * leaves a waiting statement behind. The caller closes the connection if this throws.
   *
   * @param bound the connection's network bound, given back when the key lock is closed
   * @param settings what bounds the session's silence, given back when the key lock is closed
   * @param onClose run once after the key lock is closed and its connection given back
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  static JdbcKeyLock take(
      Connection connection,
      Dialect dialect,
      long lockId,
      String key,
      NetworkBound bound,
      Dialect.SessionSettings settings,
      Runnable onClose)
      throws SQLException, InterruptedException {
    long backoffMillis = 1;
    try (PreparedStatement tryLock = connection.prepareStatement(dialect.tryLock())) {
      tryLock.setLong(1, lockId);
      while (true) {
        if (Thread.interrupted()) {
          throw new InterruptedException(
              "interrupted while waiting for the key lock of '" + key + "'");
        }
        try (ResultSet row = tryLock.executeQuery()) {
          if (!row.next()) {
            throw new SQLException("the advisory lock query returned no row");
          }
          if (row.getBoolean(1)) {
            return new JdbcKeyLock(
                connection, dialect, lockId, row.getLong(2), bound, settings, onClose);
          }
        } catch (SQLException e) {
          // An attempt that failed (its network timeout ran out) while an interrupt came, the
          // loss's: the wait ends as interrupted, which it would have if the attempt had returned.
          if (Thread.interrupted()) {
            InterruptedException interrupted =
                new InterruptedException(
                    "interrupted while waiting for the key lock of '" + key + "'");
            interrupted.initCause(e);
            throw interrupted;
          }
          throw e;
        }
        TimeUnit.MILLISECONDS.sleep(backoffMillis);
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
      }
    }
  }

  /**
   * The database session that holds the lock (PostgreSQL's backend process id, MariaDB's connection
   * id), for tests.
   */
  long backendPid() {
    return backendPid;
  }

  @Override
  public boolean isHeld() {
    synchronized (guard) {
      if (closed) {
        return false;
      }
      try {
        return connection.isValid(VALIDITY_TIMEOUT_SECONDS);
      } catch (SQLException | RuntimeException e) {
        return false;
      }
    }
  }

  /**
   * Gives the lock up without waiting for the server, for work whose lease is lost: the connection
   * is aborted on a thread of its own (an unlock would wait for a cut network to heal or time out),
   * and the server releases the lock once it finds the session gone. Until then the lock still
   * excludes every other session; nothing is let in early.
   */
  @Override
  public void abandon() {
    try {
      Thread thread = new Thread(this::abort, "lease-key-lock-abandon");
      thread.setDaemon(true);
      thread.start();
    } catch (OutOfMemoryError | RuntimeException noThread) {
      close(); // no thread to spare: release here, waiting for the server
    }
  }

  private void abort() {
    synchronized (guard) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      if (!Connections.abortQuietly(connection)) {
        release(); // the driver or pool would not abort: unlock, as close() does
        return;
      }
      Connections.closeQuietly(connection);
    } finally {
      onClose.run();
    }
  }

  /**
   * Releases the advisory lock, gives the session its settings back and closes the connection (back
   * to its pool). If the release cannot be confirmed, or the settings not given back, the
   * connection is aborted instead, so that a pool never lends out a session that still holds the
   * lock or would be ended for silence.
   */
  @Override
  public void close() {
    synchronized (guard) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      release();
    } finally {
      onClose.run();
    }
  }

  /**
   * Gives the session its settings back; false if that failed (the connection must not be lent).
   */
  static boolean restored(Connection connection, Dialect.SessionSettings settings) {
    try {
      settings.restore(connection);
      return true;
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  private void release() {
    boolean released = false;
    try (PreparedStatement unlock = connection.prepareStatement(dialect.unlock())) {
      unlock.setLong(1, lockId);
      try (ResultSet row = unlock.executeQuery()) {
        released = row.next() && row.getBoolean(1);
      }
    } catch (SQLException | RuntimeException e) {
      released = false;
    }
    if (!released || !restored(connection, settings)) {
      Connections.abortQuietly(connection);
    }
    bound.restore();
    Connections.closeQuietly(connection);
  }
}
