/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One SQLite connection with its prepared statements and its current {@code synchronous} level.
 * Used by one thread at a time (the pool hands it out exclusively): sqlite-jdbc connections are not
 * safe for concurrent use.
 */
final class Session implements AutoCloseable {

  private final Connection connection;
  private final AtomicInteger openCount;
  private final AtomicLong commits;
  private boolean closed;
  private final Map<Sql, PreparedStatement> prepared = new EnumMap<>(Sql.class);
  private @Nullable SyncMode mode;
  private boolean inTransaction;

  Session(Connection connection, AtomicInteger openCount, AtomicLong commits) {
    this.connection = connection;
    this.openCount = openCount;
    this.commits = commits;
  }

  /** Sets the sync level for the next transaction; a no-op when it is already set. */
  void use(SyncMode wanted) throws SQLException {
    if (mode != wanted) {
      // SQLite refuses to change the safety level inside a transaction; callers set it before
      // BEGIN.
      try (Statement statement = connection.createStatement()) {
        statement.execute("PRAGMA synchronous = " + wanted.name());
      }
      mode = wanted;
    }
  }

  @Nullable SyncMode mode() {
    return mode;
  }

  PreparedStatement statement(Sql sql) throws SQLException {
    PreparedStatement statement = prepared.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql.text());
      prepared.put(sql, statement);
    }
    return statement;
  }

  void begin() throws SQLException {
    statement(Sql.BEGIN_IMMEDIATE).execute();
    inTransaction = true;
  }

  void commit() throws SQLException {
    statement(Sql.COMMIT).execute();
    inTransaction = false;
    commits.incrementAndGet();
  }

  /**
   * Rolls back an open transaction, if any.
   *
   * @return {@code false} if the rollback failed, so the connection should be dropped rather than
   *     reused (SQLite may already have rolled back by itself after SQLITE_FULL or an I/O error)
   */
  boolean rollbackQuietly() {
    if (!inTransaction) {
      return true;
    }
    inTransaction = false;
    try {
      statement(Sql.ROLLBACK).execute();
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  Connection connection() {
    return connection;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    openCount.decrementAndGet();
    for (PreparedStatement statement : prepared.values()) {
      try {
        statement.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
    prepared.clear();
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing more to release
    }
  }
}
