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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The reads and writes of the record table: loads, saves, a heartbeat's batch and pruning, each on
 * a connection of its own in auto-commit mode ({@link Connections#withConnection}). Every write is
 * one conditional statement on the key's row, or one row of a multi-row statement compared on its
 * own (the dialect's: {@link Dialect#writeAcquisition}, {@link Dialect#writeAcquisitions}, {@link
 * Dialect#writeSameGeneration}); no row written is a {@link RevisionConflict}. A row that breaks a
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
   * manager's heartbeat) in the dialect's multi-row statements ({@link
   * Dialect#writeSameGeneration}), then the acquisitions, in one statement where the dialect can
   * ({@link Dialect#writeAcquisitions}).
   */
  List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    Objects.requireNonNull(writes, "writes");
    if (writes.isEmpty()) {
      return List.of();
    }
    List<LeaseWrite> sameGeneration = new ArrayList<>(writes.size());
    List<LeaseWrite> acquisitions = new ArrayList<>();
    for (LeaseWrite write : writes) {
      (write.raisesGeneration() ? acquisitions : sameGeneration).add(write);
    }
    boolean[][] saved = new boolean[2][];
    connections.withConnection(
        null,
        "save " + writes.size() + " leases",
        connection -> {
          Dialect dialect = connections.dialect();
          saved[0] =
              sameGeneration.isEmpty()
                  ? new boolean[0]
                  : dialect.writeSameGeneration(
                      connection, sql, sameGeneration, mayBeLost(sameGeneration));
          saved[1] =
              acquisitions.isEmpty()
                  ? new boolean[0]
                  : dialect.writeAcquisitions(connection, sql, acquisitions);
          return Boolean.TRUE;
        });
    List<SaveOutcome> outcomes = new ArrayList<>(writes.size());
    int nextSame = 0;
    int nextAcquisition = 0;
    for (LeaseWrite write : writes) {
      boolean written =
          write.raisesGeneration() ? saved[1][nextAcquisition++] : saved[0][nextSame++];
      outcomes.add(
          written
              ? SaveOutcome.saved(write)
              : SaveOutcome.failed(
                  write, new RevisionConflict(write.key(), write.expectedRevision(), -1)));
    }
    return outcomes;
  }

  /** See {@link dev.rivus.agentkit.lease.LeaseRepository#loadAll(Collection)}. */
  Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
    List<byte[]> hashes = new ArrayList<>(keys.size());
    for (String key : keys) {
      hashes.add(KeyBytes.hash(KeyBytes.encode(LeaseKeys.requireValid(key))));
    }
    Map<String, LeaseSnapshot> stored = new HashMap<>(hashes.size() * 2);
    if (hashes.isEmpty()) {
      return stored;
    }
    return connections.withConnection(
        null,
        "load " + hashes.size() + " leases",
        connection -> {
          Dialect dialect = connections.dialect();
          int perSelect = dialect.keysPerSelect();
          for (int from = 0; from < hashes.size(); from += perSelect) {
            List<byte[]> chunk = hashes.subList(from, Math.min(hashes.size(), from + perSelect));
            try (PreparedStatement select = dialect.selectMany(connection, sql, chunk)) {
              try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                  LeaseSnapshot snapshot = snapshot(null, row);
                  stored.put(snapshot.key(), snapshot);
                }
              }
            }
          }
          return stored;
        });
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
