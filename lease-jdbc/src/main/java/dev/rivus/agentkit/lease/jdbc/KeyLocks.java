/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepository.KeyLock;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;

/**
 * The key locks of one repository: each a session advisory lock ({@link JdbcKeyLock}) on a
 * connection of its own, whose session is given a bound on its silence ({@link
 * Dialect#boundSilence}) and on each network wait ({@link NetworkBound}) before the lock is taken,
 * and gets its settings back before the connection goes back to its pool. At most the limit given
 * hold or wait with a connection at once; beyond it, callers wait for a turn, in order, without a
 * connection, so that key locks never take the connections renewals need. A turn is given back
 * exactly once, however the key lock ends (closed, abandoned, or failed while being taken).
 *
 * <p>Thread-safe.
 */
final class KeyLocks {

  private final Connections connections;
  private final Semaphore turns;

  KeyLocks(Connections connections, int limit) {
    this.connections = connections;
    this.turns = new Semaphore(limit, true);
  }

  /** See {@link JdbcLeaseRepository#lockKey(String, Duration)}. */
  KeyLock lock(String key, Duration silenceLimit) throws InterruptedException {
    byte[] keyBytes = KeyBytes.encode(LeaseKeys.requireValid(key));
    Objects.requireNonNull(silenceLimit, "silenceLimit");
    if (silenceLimit.isNegative() || silenceLimit.isZero()) {
      throw new IllegalArgumentException("silenceLimit must be positive, was " + silenceLimit);
    }
    Duration silenceBound = silenceLimit.plus(JdbcLeaseRepository.KEY_LOCK_SILENCE_MARGIN);
    long lockId = KeyBytes.lockId(connections.table(), keyBytes);
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before taking the key lock of '" + key + "'");
    }
    turns.acquire();
    Connection connection;
    try {
      connection = connections.borrow();
    } catch (SQLException e) {
      turns.release();
      throw connections.failure(key, "take the key lock of", e);
    } catch (RuntimeException | Error e) {
      turns.release();
      throw e;
    }
    Dialect dialect = connections.dialect();
    NetworkBound bound = null;
    Dialect.SessionSettings settings = null;
    try {
      Connections.autoCommit(connection);
      // Every call of the key lock is bounded, so that a wait on a dead network still ends, and
      // sees the interrupt of a loss.
      bound = NetworkBound.apply(connection, connections.networkTimeoutMillis());
      // Before the lock is taken, so that no moment of holding it is unbounded.
      settings = dialect.boundSilence(connection, silenceBound);
      return JdbcKeyLock.take(connection, dialect, lockId, key, bound, settings, turns::release);
    } catch (SQLException e) {
      giveBack(connection, bound, settings);
      throw connections.failure(key, "take the key lock of", e);
    } catch (InterruptedException | RuntimeException | Error e) {
      giveBack(connection, bound, settings);
      throw e;
    }
  }

  /** Gives back a key lock's connection and turn when taking the key lock failed. */
  private void giveBack(
      Connection connection,
      @Nullable NetworkBound bound,
      Dialect.@Nullable SessionSettings settings) {
    if (settings != null) {
      // Not restored but dropped: the wait ended by an interrupt (a loss) or a failure, perhaps on
      // a cut network, where a statement would wait for the network timeout; and a session with
      // the bound must never be lent out.
      Connections.abortQuietly(connection);
    }
    if (bound != null) {
      bound.restore();
    }
    Connections.closeQuietly(connection);
    turns.release();
  }
}
