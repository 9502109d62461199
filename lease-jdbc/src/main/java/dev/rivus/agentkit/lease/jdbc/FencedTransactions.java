/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.StoreLost;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;

/**
 * The fenced transactions of one repository ({@link JdbcLeaseRepository#inFencedTransaction(Lease,
 * FencedTransaction)}, and its token form) and the check they make ({@link
 * JdbcLeaseRepository#verifyFence}): a transaction commits only if, under a share lock on the key's
 * generation row held to its end, the generation row and the record still carry the lease's
 * generation and the record is held. The token form aborts its connection on the lease's loss
 * ({@link AbortOnLoss}). At most the limit given run at once, each on a connection of the data
 * source; more wait for a turn, in order.
 *
 * <p>Thread-safe.
 */
final class FencedTransactions {

  private final Connections connections;
  private final Records records;
  private final Sql sql;
  private final Semaphore turns;

  FencedTransactions(Connections connections, Records records, Sql sql, int limit) {
    this.connections = connections;
    this.records = records;
    this.sql = sql;
    this.turns = new Semaphore(limit, true);
  }

  /** See {@link JdbcLeaseRepository#inFencedTransaction(Lease, FencedTransaction)}. */
  <T extends @Nullable Object> T run(Lease lease, FencedTransaction<T> work)
      throws SQLException, InterruptedException {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(work, "work");
    return fencedTransaction(lease.key(), lease.generation(), localLoss(lease), null, work);
  }

  /** See {@link JdbcLeaseRepository#inFencedTransaction(FencingToken, FencedTransaction)}. */
  <T extends @Nullable Object> T run(FencingToken token, FencedTransaction<T> work)
      throws SQLException, InterruptedException {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(work, "work");
    LeaseLost lost =
        token.isHeld()
            ? null
            : new LeaseLost(token.key(), token.generation(), LeaseLost.Reason.EXPIRED, null, null);
    return fencedTransaction(token.key(), token.generation(), lost, token, work);
  }

  /** See {@link JdbcLeaseRepository#verifyFence}. */
  void verify(Connection connection, String key, long generation) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    LeaseKeys.requireValid(key);
    if (connection.getAutoCommit()) {
      throw new IllegalStateException(
          "verifyFence needs a connection in a transaction (auto-commit off): in auto-commit"
              + " mode the generation row's lock would end with the check");
    }
    // The record is read on a connection of its own, outside the caller's transaction (see
    // fencedTransaction); the generation row in it decides.
    LeaseSnapshot current = records.load(key).orElse(null);
    byte[] keyHash = KeyBytes.hash(KeyBytes.encode(key));
    checkFence(connection, key, generation, keyHash, current, idleBound(key, generation, current));
  }

  private <T extends @Nullable Object> T fencedTransaction(
      String key,
      long generation,
      @Nullable LeaseLost lostHere,
      @Nullable FencingToken token,
      FencedTransaction<T> work)
      throws SQLException, InterruptedException {
    if (lostHere != null) {
      throw lostHere;
    }
    byte[] keyHash = KeyBytes.hash(KeyBytes.encode(key));
    Dialect dialect = connections.dialect();
    turns.acquire();
    try (Connection connection = connections.borrow();
        AbortOnLoss abort = AbortOnLoss.watch(token, connection)) {
      try {
        Connections.autoCommit(connection);
        // Read before the transaction, so that no isolation level (MariaDB's SERIALIZABLE turns
        // plain reads into share locks) makes the record's renewals wait for the transaction.
        LeaseSnapshot current = records.read(connection, key, keyHash);
        Duration idleBound = idleBound(key, generation, current);
        dialect.beforeFencedTransaction(connection, idleBound);
        try {
          T result =
              Connections.inTransaction(
                  connection,
                  c -> {
                    checkFence(c, key, generation, keyHash, current, idleBound);
                    return work.run(c);
                  },
                  unused -> abort.beginCommit());
          abort.close(); // committed (or refused): a loss from now on must not break the session
          if (abort.abortedBeforeCommit()) {
            throw abortedByLoss(key, generation, null);
          }
          return result;
        } finally {
          try {
            dialect.afterFencedTransaction(connection);
          } catch (SQLException | RuntimeException broken) {
            Connections.abortQuietly(connection); // never lend out a session with our setting
          }
        }
      } catch (LeaseLost lost) {
        throw lost;
      } catch (SQLException | RuntimeException failed) {
        if (abort.abortedBeforeCommit()) {
          throw abortedByLoss(key, generation, failed);
        }
        throw failed;
      }
    } finally {
      turns.release();
    }
  }

  /** The loss of a fenced transaction's lease aborted it before its commit: nothing committed. */
  private static LeaseLost abortedByLoss(String key, long generation, @Nullable Exception failure) {
    return new LeaseLost(key, generation, LeaseLost.Reason.EXPIRED, null, failure);
  }

  /**
   * How long a fenced transaction may stay idle on the server: the lease's TTL. A holder silent for
   * that long has lost its lease anyway, and the server then ends the transaction, freeing the
   * generation row for a successor.
   */
  private Duration idleBound(String key, long generation, @Nullable LeaseSnapshot current) {
    if (current == null) {
      throw missing(key, generation, null, connections.table());
    }
    Duration ttl = current.ttl();
    return ttl.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : ttl;
  }

  /**
   * Locks the generation row and checks it and the record, read before: the generation row decides
   * (no acquisition can commit while the lock is held); the record tells a release, and what to
   * report.
   */
  private void checkFence(
      Connection connection,
      String key,
      long generation,
      byte[] keyHash,
      @Nullable LeaseSnapshot current,
      Duration idleBound)
      throws SQLException {
    long rowGeneration =
        connections.dialect().lockGenerationRow(connection, sql, keyHash, idleBound);
    if (current == null) {
      throw missing(key, generation, null, connections.table());
    }
    if (rowGeneration < 0) {
      throw missing(key, generation, current, sql.generationTable());
    }
    if (rowGeneration != generation || current.generation() != generation) {
      throw new LeaseLost(key, generation, LeaseLost.Reason.TAKEN_OVER, current, null);
    }
    if (current.state() != LeaseState.HELD) {
      throw new LeaseLost(key, generation, LeaseLost.Reason.RELEASED, current, null);
    }
  }

  private LeaseLost missing(
      String key, long generation, @Nullable LeaseSnapshot current, String where) {
    return new LeaseLost(
        key,
        generation,
        LeaseLost.Reason.STORE_LOST,
        current,
        new StoreLost(
            "the "
                + (current == null ? "record" : "generation row")
                + " of lease '"
                + key
                + "' is missing from "
                + connections.dialect().name()
                + " table '"
                + where
                + "'",
            null));
  }

  /** The loss a lease that is no longer held here tells, or {@code null} while it is held. */
  private static @Nullable LeaseLost localLoss(Lease lease) {
    if (lease.isHeld()) {
      return null;
    }
    LeaseLost lost;
    try {
      lost = lease.lost().toCompletableFuture().getNow(null);
    } catch (RuntimeException unknown) {
      lost = null;
    }
    return lost != null
        ? lost.rethrown()
        : new LeaseLost(lease.key(), lease.generation(), LeaseLost.Reason.RELEASED, null, null);
  }
}
