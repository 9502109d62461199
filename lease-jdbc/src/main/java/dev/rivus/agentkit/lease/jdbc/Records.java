/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The reads and writes of the record table: loads, saves, a heartbeat's batch and pruning, each on
 * a connection of its own in auto-commit mode ({@link Connections#withConnection}). Every write is
 * one conditional statement on the key's row (an acquisition is the dialect's, {@link
 * Dialect#writeAcquisition}); no row written is a {@link RevisionConflict}. A row that breaks a
 * rule of the snapshot is reported as a corrupt record.
 *
 * <p>Immutable and thread-safe.
 */
final class Records {

  private final Connections connections;
  private final Sql sql;

  Records(Connections connections, Sql sql) {
    this.connections = connections;
    this.sql = sql;
  }

  /** See {@link dev.rivus.agentkit.lease.LeaseRepository#load}. */
  Optional<LeaseSnapshot> load(String key) {
    byte[] keyBytes = KeyBytes.encode(LeaseKeys.requireValid(key));
    return connections.withConnection(
        key,
        "load",
        connection -> {
          try (PreparedStatement select = connection.prepareStatement(sql.selectOne())) {
            select.setBytes(1, KeyBytes.hash(keyBytes));
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? Optional.of(snapshot(key, row)) : Optional.empty();
            }
          }
        });
  }

  /** See {@link dev.rivus.agentkit.lease.LeaseRepository#loadAll}. */
  List<LeaseSnapshot> loadAll() {
    return connections.withConnection(
        null,
        "load every lease",
        connection -> {
          List<LeaseSnapshot> all = new ArrayList<>();
          try (Statement select = connection.createStatement();
              ResultSet row = select.executeQuery(sql.selectAll())) {
            while (row.next()) {
              all.add(snapshot(null, row));
            }
          }
          return all;
        });
  }

  /**
   * Reads the record of a key on a connection the caller holds, as it is (no network bound, no
   * auto-commit change), or {@code null} if the key has none.
   */
  @Nullable LeaseSnapshot read(Connection connection, String key, byte[] keyHash)
      throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(sql.selectOne())) {
      select.setBytes(1, keyHash);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? snapshot(key, row) : null;
      }
    }
  }

  /** See {@link dev.rivus.agentkit.lease.LeaseRepository#save}. */
  void save(LeaseWrite write) {
    Objects.requireNonNull(write, "write");
    byte[] keyBytes = KeyBytes.encode(write.key());
    boolean saved =
        connections.withConnection(
            write.key(), "save", connection -> execute(connection, write, keyBytes) == 1);
    if (!saved) {
      throw new RevisionConflict(write.key(), write.expectedRevision(), -1);
    }
  }

  /**
   * Saves each write as {@link #save} does, on one connection: the renewals and releases (the
   * manager's heartbeat) in one JDBC batch, acquisitions one by one.
   */
  List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    Objects.requireNonNull(writes, "writes");
    if (writes.isEmpty()) {
      return List.of();
    }
    List<LeaseWrite> batched = new ArrayList<>();
    for (LeaseWrite write : writes) {
      if (!write.raisesGeneration()) {
        batched.add(write);
      }
    }
    int[] counts = new int[writes.size()];
    connections.withConnection(
        null,
        "save " + writes.size() + " leases",
        connection -> {
          int[] batchCounts = batch(connection, batched);
          int next = 0;
          for (int i = 0; i < writes.size(); i++) {
            LeaseWrite write = writes.get(i);
            counts[i] =
                write.raisesGeneration()
                    ? execute(connection, write, KeyBytes.encode(write.key()))
                    : batchCounts[next++];
          }
          return Boolean.TRUE;
        });
    List<SaveOutcome> outcomes = new ArrayList<>(writes.size());
    for (int i = 0; i < writes.size(); i++) {
      LeaseWrite write = writes.get(i);
      if (counts[i] == 1 || (counts[i] == Statement.SUCCESS_NO_INFO && landed(write))) {
        outcomes.add(SaveOutcome.saved(write));
      } else {
        outcomes.add(
            SaveOutcome.failed(
                write, new RevisionConflict(write.key(), write.expectedRevision(), -1)));
      }
    }
    return outcomes;
  }

  /**
   * After a batch that gave no count (a driver that rewrites batches): whether the write is stored.
   */
  private boolean landed(LeaseWrite write) {
    return load(write.key()).filter(write.snapshot()::equals).isPresent();
  }

  /**
   * The updates that keep the generation, grouped by statement (renewals, then releases, whose
   * statement also notifies the table's listeners), in one batch each; counts in the given order.
   */
  private int[] batch(Connection connection, List<LeaseWrite> writes) throws SQLException {
    int[] counts = new int[writes.size()];
    List<Integer> renewals = new ArrayList<>();
    List<Integer> releases = new ArrayList<>();
    for (int i = 0; i < writes.size(); i++) {
      (isRelease(writes.get(i)) ? releases : renewals).add(i);
    }
    batchOf(connection, writes, renewals, false, counts);
    batchOf(connection, writes, releases, true, counts);
    return counts;
  }

  /** One batch of the writes at {@code indexes}, its counts put at those indexes. */
  private void batchOf(
      Connection connection,
      List<LeaseWrite> writes,
      List<Integer> indexes,
      boolean release,
      int[] counts)
      throws SQLException {
    if (indexes.isEmpty()) {
      return;
    }
    List<LeaseWrite> group = new ArrayList<>(indexes.size());
    indexes.forEach(i -> group.add(writes.get(i)));
    boolean lighter = mayBeLost(group);
    String statement = release ? sql.updateRelease() : sql.updateSameGeneration();
    try (PreparedStatement update = connection.prepareStatement(statement)) {
      for (LeaseWrite write : group) {
        sql.bindSameGeneration(update, KeyBytes.encode(write.key()), write, lighter, release);
        update.addBatch();
      }
      int[] batchCounts = update.executeBatch();
      for (int j = 0; j < indexes.size(); j++) {
        counts[indexes.get(j)] =
            j < batchCounts.length ? batchCounts[j] : Statement.SUCCESS_NO_INFO;
      }
    }
  }

  private static boolean isRelease(LeaseWrite write) {
    return write.intent() == LeaseWrite.Intent.RELEASE;
  }

  /** Executes the conditional statement of one write; returns the rows written. */
  private int execute(Connection connection, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    if (write.raisesGeneration()) {
      return connections.dialect().writeAcquisition(connection, sql, write, keyBytes);
    }
    boolean release = isRelease(write);
    String statement = release ? sql.updateRelease() : sql.updateSameGeneration();
    try (PreparedStatement update = connection.prepareStatement(statement)) {
      sql.bindSameGeneration(update, keyBytes, write, mayBeLost(List.of(write)), release);
      return update.executeUpdate();
    }
  }

  /**
   * Whether a crash of the database may lose the writes: releases only. A lost release leaves the
   * record held at its last renewal, which was durable, by a holder that has stopped: others wait
   * one TTL for nothing, and the revision number it took is next written with a higher generation.
   * A lost renewal would not be harmless: its holder outlives the crash and counts on it, while a
   * successor counts its TTL from the revision before.
   */
  static boolean mayBeLost(List<LeaseWrite> writes) {
    // A batch is one transaction on PostgreSQL: it may skip the flush only if all are releases.
    return !writes.isEmpty()
        && writes.stream().allMatch(write -> write.intent() == LeaseWrite.Intent.RELEASE);
  }

  /** See {@link dev.rivus.agentkit.lease.PrunableLeaseRepository#prune}. */
  int prune(Duration olderThan) {
    Objects.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must not be negative, was " + olderThan);
    }
    Instant now = Instant.now();
    boolean all = olderThan.isZero();
    Instant cutoff;
    try {
      cutoff = now.minus(olderThan);
    } catch (DateTimeException | ArithmeticException beforeTime) {
      return 0; // older than anything the clock can name
    }
    Instant cut = cutoff;
    return connections.withConnection(
        null,
        "prune tombstones older than " + olderThan,
        connection -> {
          try (PreparedStatement prune = connection.prepareStatement(sql.prune(all))) {
            prune.setLong(1, now.getEpochSecond());
            prune.setInt(2, now.getNano());
            if (!all) {
              prune.setLong(3, cut.getEpochSecond());
              prune.setLong(4, cut.getEpochSecond());
              prune.setInt(5, cut.getNano());
            }
            return prune.executeUpdate();
          }
        });
  }

  private LeaseSnapshot snapshot(@Nullable String key, ResultSet row) throws SQLException {
    try {
      return Sql.snapshot(row);
    } catch (IllegalArgumentException corrupt) {
      throw new LeaseRepositoryFailure(
          key,
          "a corrupt record in "
              + connections.dialect().name()
              + " table '"
              + connections.table()
              + "': "
              + corrupt.getMessage(),
          corrupt);
    }
  }
}
