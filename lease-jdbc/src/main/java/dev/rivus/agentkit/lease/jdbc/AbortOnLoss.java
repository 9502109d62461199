/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.FencingToken;
import java.sql.Connection;
import org.jspecify.annotations.Nullable;

/**
 * Ends a fenced transaction whose lease is lost while it runs: the loss aborts the transaction's
 * connection ({@link Connection#abort}), so that a statement blocked on a row lock, a long query or
 * a cut network ends at once rather than at its own timeout, and the transaction commits nothing.
 * JDBC calls answer no interrupt; this is the interrupt's counterpart for the library's own
 * transaction. (The server ends its side too: MariaDB's driver sends {@code KILL}; for PostgreSQL,
 * whose driver only closes the socket, {@link PostgresDialect#lockGenerationRow} has the server
 * check for a client gone.)
 *
 * <p>The abort runs on a thread of its own: a driver may block in it (MariaDB's opens a connection
 * to send {@code KILL}), and the library thread that delivers losses must not wait on I/O. {@link
 * #close()} waits for an abort that started, so that the connection never goes back to its pool
 * while a late abort could still reach it.
 *
 * <p>Thread-safe: the loss arrives on a library thread, everything else on the transaction's.
 */
final class AbortOnLoss implements AutoCloseable {

  private final Connection connection;
  private FencingToken.Registration registration = () -> {}; // written once, by the creator
  private boolean aborting; // guarded by this
  private boolean abortEnded; // guarded by this
  private boolean commitSent; // guarded by this
  private boolean closed; // guarded by this

  private AbortOnLoss(Connection connection) {
    this.connection = connection;
  }

  /**
   * Watches {@code token}'s lease for the transaction on {@code connection}; with no token (a
   * transaction outside fenced work), never aborts.
   */
  static AbortOnLoss watch(@Nullable FencingToken token, Connection connection) {
    AbortOnLoss watch = new AbortOnLoss(connection);
    if (token != null) {
      watch.registration = token.onLoss(watch::abort);
    }
    return watch;
  }

  private void abort() {
    synchronized (this) {
      if (closed || aborting) {
        return;
      }
      aborting = true;
    }
    try {
      Thread thread = new Thread(this::abortConnection, "lease-fenced-transaction-abort");
      thread.setDaemon(true);
      thread.start();
    } catch (OutOfMemoryError | RuntimeException noThread) {
      // No thread to spare: abort here, on the library's thread, rather than not at all (and
      // never leave close() waiting for an abort that did not start).
      abortConnection();
    }
  }

  private void abortConnection() {
    try {
      Connections.abortQuietly(connection);
    } finally {
      synchronized (this) {
        abortEnded = true;
        notifyAll();
      }
    }
  }

  /**
   * Called just before the commit: whether it may be sent. False if the loss aborted the
   * transaction first; once it is sent, an abort leaves the commit's outcome unknown.
   */
  synchronized boolean beginCommit() {
    if (aborting) {
      return false;
    }
    commitSent = true;
    return true;
  }

  /** Whether the loss aborted the transaction before its commit was sent: nothing was committed. */
  synchronized boolean abortedBeforeCommit() {
    return aborting && !commitSent;
  }

  /**
   * Stops watching, and waits for an abort that started. Called once the commit returned (a loss
   * after it must not abort a committed transaction's connection) and again when the transaction
   * ends; closing again does nothing more. Never interrupted.
   */
  @Override
  public void close() {
    registration.close();
    boolean interrupted = false;
    synchronized (this) {
      closed = true;
      while (aborting && !abortEnded) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // the loss's own interrupt, most likely: kept for the caller
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
