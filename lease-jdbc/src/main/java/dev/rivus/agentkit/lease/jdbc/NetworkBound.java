/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * A bound on how long a connection's calls wait for the network ({@link
 * Connection#setNetworkTimeout}) while the repository uses it, and what the connection had before,
 * to give back. Without it, a call on a connection whose far end died silently waits until the
 * operating system gives up, which can be hours. A shorter timeout the connection already has is
 * kept; a driver that cannot tell or set it is left as it is. Not thread-safe: one per use of a
 * connection.
 */
final class NetworkBound {

  /** Where the driver runs the abort of a timed-out connection: the thread that timed out. */
  private static final Executor DIRECT = Runnable::run;

  private final Connection connection;
  private final int previousMillis;
  private final boolean changed;

  private NetworkBound(Connection connection, int previousMillis, boolean changed) {
    this.connection = connection;
    this.previousMillis = previousMillis;
    this.changed = changed;
  }

  /** Bounds the connection's network waits to {@code millis}, unless it has a shorter bound. */
  static NetworkBound apply(Connection connection, int millis) throws SQLException {
    int previous;
    try {
      previous = connection.getNetworkTimeout();
    } catch (java.sql.SQLFeatureNotSupportedException | UnsupportedOperationException unknown) {
      return new NetworkBound(connection, 0, false);
    }
    boolean change = previous == 0 || previous > millis;
    if (change) {
      connection.setNetworkTimeout(DIRECT, millis);
    }
    return new NetworkBound(connection, previous, change);
  }

  /** Gives the connection its own bound back; a broken connection is left to its pool. */
  void restore() {
    if (!changed) {
      return;
    }
    try {
      connection.setNetworkTimeout(DIRECT, previousMillis);
    } catch (SQLException | RuntimeException broken) {
      // a connection that failed is dropped by the pool on its own
    }
  }
}
