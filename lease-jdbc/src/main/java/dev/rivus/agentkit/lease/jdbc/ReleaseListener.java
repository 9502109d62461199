/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.support.KeyWatches;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The listening side of one repository's release notices: while a watch is open, one daemon thread
 * holds one connection of the repository's data source, listens on the table's channel and wakes
 * the watches of each key whose release it receives. It starts with the first watch, and gives its
 * connection back once no watch has been open for {@link #LINGER_NANOS}, or when the repository
 * closes.
 *
 * <p>No notice is ever lost to a waiter: every time the connection starts listening, and every time
 * it fails (or a connection attempt does), every watch is woken, since releases may have gone
 * unheard meanwhile; a failed connection is given up and another one tried, after a backoff that
 * doubles up to {@link #MAX_BACKOFF_MILLIS}. A connection that can never receive notices (a pool
 * that cannot unwrap it to the driver's) ends listening for good: {@link #isSupported()} then says
 * so, and the repository opens no more watches.
 *
 * <p>Waking only signals, so this thread never holds up a save, a renewal or a timer; and nothing
 * but this thread touches its connection. Thread-safe.
 */
final class ReleaseListener {

  /** How long one wait for notices lasts: how soon the thread sees that it should stop. */
  private static final int RECEIVE_MILLIS = 250;

  /** How often a silent connection is checked, so that a cut network is noticed. */
  private static final long PROBE_NANOS = TimeUnit.SECONDS.toNanos(5);

  private static final int PROBE_TIMEOUT_SECONDS = 2;

  /** How long the connection is kept after the last watch closed, for the next waiter. */
  private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(30);

  private static final long MIN_BACKOFF_MILLIS = 50;
  private static final long MAX_BACKOFF_MILLIS = 2_000;

  private final DataSource dataSource;
  private final ReleaseNotices notices;
  private final KeyWatches watches;
  private final String name;

  private @Nullable Thread thread; // guarded by this
  private boolean closed; // guarded by this
  private volatile boolean supported = true;

  ReleaseListener(DataSource dataSource, ReleaseNotices notices, KeyWatches watches, String name) {
    this.dataSource = dataSource;
    this.notices = notices;
    this.watches = watches;
    this.name = name;
  }

  /** Whether notices can be received at all; false once a connection showed they cannot. */
  boolean isSupported() {
    return supported;
  }

  /**
   * Starts listening, if not yet: a watch was just opened.
   *
   * @return false if this listener is closed or notices cannot be received: offer no watch
   */
  synchronized boolean watching() {
    if (closed || !supported) {
      return false;
    }
    if (thread != null) {
      return true;
    }
    Thread listening = new Thread(this::run, "lease-release-listener-" + name);
    listening.setDaemon(true);
    thread = listening;
    listening.start();
    return true;
  }

  /** Stops listening and gives the connection back; waits a moment for the thread to do so. */
  void close() {
    Thread listening;
    synchronized (this) {
      closed = true;
      listening = thread;
    }
    if (listening != null) {
      listening.interrupt(); // ends a backoff; a wait for notices ends within RECEIVE_MILLIS
      try {
        listening.join(TimeUnit.SECONDS.toMillis(2));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    watches.wakeAll();
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  /** Ends the thread if no watch is open (checked under the lock {@link #watching} takes). */
  private synchronized boolean stopIfIdle() {
    if (closed || watches.isEmpty()) {
      stopped();
      return true;
    }
    return false;
  }

  /** Forgets this thread, unless a new one already took its place. */
  private synchronized void stopped() {
    if (thread == Thread.currentThread()) {
      thread = null;
    }
  }

  private void run() {
    long backoffMillis = MIN_BACKOFF_MILLIS;
    try {
      while (!isClosed()) {
        Connection connection = null;
        try {
          connection = dataSource.getConnection();
          ReleaseNotices.Receiver receiver = notices.listen(connection);
          watches.wakeAll(); // releases before the LISTEN went unheard
          backoffMillis = MIN_BACKOFF_MILLIS;
          receive(connection, receiver);
          notices.unlisten(connection); // the connection goes back to its pool clean
          return;
        } catch (ReleaseNotices.NotSupported | LinkageError never) {
          supported = false;
          return;
        } catch (SQLException | RuntimeException failed) {
          if (connection != null) {
            Connections.abortQuietly(connection); // never lent out again still listening
          }
        } finally {
          if (connection != null) {
            Connections.closeQuietly(connection);
          }
        }
        watches.wakeAll(); // releases while the connection was down went unheard
        if (stopIfIdle()) {
          return;
        }
        try {
          TimeUnit.MILLISECONDS.sleep(backoffMillis);
        } catch (InterruptedException closing) {
          return;
        }
        backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
      }
    } finally {
      stopped();
      watches.wakeAll();
    }
  }

  /** Receives on a listening connection until the listener should stop, or the connection fails. */
  private void receive(Connection connection, ReleaseNotices.Receiver receiver)
      throws SQLException {
    long lastHeard = System.nanoTime();
    long idleSince = 0;
    boolean idle = false;
    while (!isClosed()) {
      for (String payload : receiver.receive(RECEIVE_MILLIS)) {
        watches.wake(payload);
      }
      long now = System.nanoTime();
      if (watches.isEmpty()) {
        if (!idle) {
          idle = true;
          idleSince = now;
        } else if (now - idleSince > LINGER_NANOS && stopIfIdle()) {
          return;
        }
      } else {
        idle = false;
      }
      if (now - lastHeard > PROBE_NANOS) {
        if (!connection.isValid(PROBE_TIMEOUT_SECONDS)) {
          throw new SQLException("the listening connection is no longer valid");
        }
        lastHeard = System.nanoTime();
      }
    }
  }
}
