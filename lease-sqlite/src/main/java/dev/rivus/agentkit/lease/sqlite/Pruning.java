/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Deletes old tombstones and raises the floors, in one synced transaction: the generation floor to
 * the highest generation deleted and the revision floor to the highest revision deleted. A key with
 * no record then loads as a floor carrying both, and a record created for it later starts above
 * both, so its generations keep rising and its revisions never repeat. Thread-safe.
 */
final class Pruning {

  private final Database database;
  private final InstantSource clock;

  Pruning(Database database, InstantSource clock) {
    this.database = database;
    this.clock = clock;
  }

  int prune(Duration olderThan) {
    Instant now = clock.instant();
    Instant cutoff = cutoff(now, olderThan);
    return database.write(
        null,
        "pruning tombstones older than " + olderThan,
        SyncMode.FULL,
        session -> {
          session.begin();
          PreparedStatement select = session.statement(Sql.SELECT_PRUNABLE);
          select.setLong(1, cutoff.getEpochSecond());
          select.setLong(2, cutoff.getNano());
          int count;
          long highestGeneration;
          long highestRevision;
          try (ResultSet row = select.executeQuery()) {
            row.next();
            count = row.getInt(1);
            highestGeneration = row.getLong(2);
            highestRevision = row.getLong(3);
          }
          if (count > 0) {
            PreparedStatement raise = session.statement(Sql.RAISE_FLOORS);
            raise.setLong(1, highestGeneration);
            raise.setLong(2, highestRevision);
            raise.executeUpdate();
            PreparedStatement stamp = session.statement(Sql.SET_FLOOR_TIME);
            stamp.setLong(1, now.getEpochSecond());
            stamp.executeUpdate();
            PreparedStatement holders = session.statement(Sql.DELETE_PRUNABLE_HOLDERS);
            holders.setLong(1, cutoff.getEpochSecond());
            holders.setLong(2, cutoff.getNano());
            holders.executeUpdate();
            PreparedStatement delete = session.statement(Sql.DELETE_PRUNABLE);
            delete.setLong(1, cutoff.getEpochSecond());
            delete.setLong(2, cutoff.getNano());
            delete.executeUpdate();
          }
          session.commit();
          return count;
        });
  }

  private static Instant cutoff(Instant now, Duration olderThan) {
    try {
      return now.minus(olderThan);
    } catch (DateTimeException | ArithmeticException beforeTime) {
      return Instant.MIN; // older than anything the clock can name: prunes nothing
    }
  }
}
