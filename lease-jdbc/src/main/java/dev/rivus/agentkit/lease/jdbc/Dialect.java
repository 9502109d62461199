/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What differs between databases: the SQL that is not standard (creating the tables, reading their
 * comments, insert-if-absent, the generation row's locks, durable commits, advisory locks) and how
 * errors are told apart. One implementation per database: PostgreSQL, and MariaDB (also chosen for
 * MySQL). Every statement takes the table name from {@link JdbcOptions}, validated, and everything
 * else as bound parameters.
 */
interface Dialect {

  /** The database's name, for messages. */
  String name();

  /** The DDL file in this package that creates the tables, for {@link Schema}. */
  String schemaFile();

  /**
   * Runs the statements of {@link #schemaFile()} for one table, safely beside another process doing
   * the same.
   */
  void createTables(Connection connection, String table, List<String> statements)
      throws SQLException;

  /**
   * After the tables were checked: looks for what else of the DDL file this dialect's writes use
   * when it is there (MariaDB's acquisition procedure), so that they do without it otherwise.
   * Nothing by default.
   */
  default void findRoutines(Connection connection, String table) throws SQLException {}

  /** Whether a table exists on the connection's search path, and its comment if it has one. */
  TableComment tableComment(Connection connection, String table) throws SQLException;

  /** What {@link #tableComment} found. */
  record TableComment(boolean exists, @Nullable String comment) {}

  /**
   * Writes and commits an acquisition (a write that raises the generation) on a connection in
   * auto-commit mode, which it leaves so: the key's generation row is locked first, which waits for
   * the fenced transactions of the generation it supersedes, then the record is written,
   * conditionally, and the generation row raised with it, in one transaction that commits durably
   * if the record row was written and writes nothing otherwise.
   *
   * @return the record rows written: 1, or 0 on a conflict
   */
  int writeAcquisition(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException;

  /**
   * Writes and commits a batch of acquisitions, each as {@link #writeAcquisition} does (its
   * generation row locked first, a conflict writing nothing for that key and no error for the
   * others, durable), on a connection in auto-commit mode, which it leaves so. The default writes
   * them one by one, each its own transaction; a dialect that can write them in one overrides it.
   *
   * @return whether each record was written, in order
   */
  default boolean[] writeAcquisitions(Connection connection, Sql sql, List<LeaseWrite> writes)
      throws SQLException {
    boolean[] written = new boolean[writes.size()];
    for (int i = 0; i < written.length; i++) {
      LeaseWrite write = writes.get(i);
      written[i] = writeAcquisition(connection, sql, write, KeyBytes.encode(write.key())) == 1;
    }
    return written;
  }

  /**
   * Writes a batch of renewals and releases (writes that keep the generation), each compared as
   * {@link Sql#updateSameGeneration} compares it (the key's row, at the expected revision and of
   * the same generation), in as few statements as the database's limits allow, on a connection in
   * auto-commit mode, which it leaves so. Every write commits durably, unless {@code lighter}.
   *
   * @param lighter whether the transactions may commit without waiting for the flush (a batch of
   *     releases only; where the database has such a setting, see {@link #commitMode()})
   * @return whether each write was saved, in order
   */
  boolean[] writeSameGeneration(
      Connection connection, Sql sql, List<LeaseWrite> writes, boolean lighter) throws SQLException;

  /** How many keys one statement of {@link #selectMany} may read. */
  default int keysPerSelect() {
    return 1_000; // well within every driver's parameters
  }

  /**
   * Prepares the select of the records of many keys, by their hashes ({@link #keysPerSelect()} at
   * most), with its parameters bound; the caller closes it. The default names each hash as a
   * parameter of an {@code IN} list.
   */
  default PreparedStatement selectMany(Connection connection, Sql sql, List<byte[]> keyHashes)
      throws SQLException {
    PreparedStatement select = connection.prepareStatement(sql.selectMany(keyHashes.size()));
    for (int i = 0; i < keyHashes.size(); i++) {
      select.setBytes(i + 1, keyHashes.get(i));
    }
    return select;
  }

  /**
   * A {@code FROM} item (without the {@code FROM}) that makes the transaction of the statement that
   * writes a row with it commit durably even on a session whose application turned durability off;
   * empty where the database has no such setting for one transaction. Every write needs it: an
   * acquisition's generation must never go back, and a renewal is counted on by its holder, who
   * outlives a crash of the database (a lost renewal would let a successor in early).
   */
  String durableCommit();

  /**
   * Like {@link #durableCommit()}, with one boolean parameter: {@code true} lets the transaction
   * commit without waiting for the flush (a batch of releases only, which a crash may lose without
   * harm), {@code false} makes it durable as {@link #durableCommit()} does. Empty where the
   * database has no such setting for one transaction.
   */
  String commitMode();

  /**
   * A {@code FROM} item (without the {@code FROM}) that notifies the table's listeners of a
   * release, delivered when the statement's transaction commits, with one parameter: the key's hash
   * in hex (see {@link ReleaseNotices}). Empty where the database sends no notifications.
   *
   * @param channel the table's channel, {@link ReleaseNotices#channel}
   */
  String releaseNotice(String channel);

  /**
   * How to listen to the notices of {@link #releaseNotice}, or {@code null} where the database
   * sends none (MariaDB).
   *
   * @param channel the table's channel, {@link ReleaseNotices#channel}
   */
  @Nullable ReleaseNotices releaseNotices(String channel);

  /**
   * Bounds how long an acquisition waits for a row lock (a fenced transaction's share lock on the
   * generation row) within its own statement or transaction, in milliseconds; see {@link
   * #writeAcquisition}.
   */
  long ACQUISITION_LOCK_WAIT_MILLIS = 1_000;

  /**
   * Before a fenced transaction starts: bounds its idle time on the server where that is a setting
   * of the session (MariaDB), so that a holder cut off in the middle of one does not keep the
   * generation row's share lock until the server notices the dead connection.
   */
  void beforeFencedTransaction(Connection connection, Duration idleBound) throws SQLException;

  /** After a fenced transaction ended: undoes {@link #beforeFencedTransaction}. */
  void afterFencedTransaction(Connection connection) throws SQLException;

  /**
   * Reads the generation row of a key with a share lock held to the end of the connection's
   * transaction; where the database can do it for one transaction (PostgreSQL), in the same
   * statement, bounds the transaction's idle time on the server.
   *
   * @param idleBound the longest the transaction may stay idle on the server
   * @return the generation row's generation, or -1 if the key has no generation row
   */
  long lockGenerationRow(Connection connection, Sql sql, byte[] keyHash, Duration idleBound)
      throws SQLException;

  /**
   * Tells whether the failure says a row lock could not be had within the bound (the
   * acquisition's), the statement or transaction having been rolled back.
   */
  boolean isLockWaitTimeout(SQLException failure);

  /**
   * Tries to take the advisory lock of one 64-bit id without waiting: one row of two columns, a
   * boolean or 0/1 (taken) and the session's id (for tests that kill it).
   */
  String tryLock();

  /** Releases the advisory lock of one 64-bit id: one row, a boolean or 0/1 (it was held). */
  String unlock();

  /**
   * Before a key lock is taken on the connection: makes the server end the session by itself once
   * it has been idle (its client silent) for longer than {@code silenceBound}, which frees the
   * lock, so that a holder cut off from the server cannot keep the key for longer than that. The
   * key lock's own calls and {@link java.sql.Connection#isValid} (the manager's check every
   * heartbeat round) keep a live holder's session from idling out.
   *
   * @return how to give the session its own settings back, before it goes back to its pool
   */
  SessionSettings boundSilence(Connection connection, Duration silenceBound) throws SQLException;

  /** What {@link #boundSilence} changed on a session, to undo. */
  @FunctionalInterface
  interface SessionSettings {
    /** Gives the session the settings it had before. */
    void restore(Connection connection) throws SQLException;
  }

  /** Tells whether the failure says the table does not exist. */
  boolean isUndefinedTable(SQLException failure);

  /** Tells whether the failure says a column does not exist. */
  boolean isUndefinedColumn(SQLException failure);

  /**
   * The dialect of a database, by the product name its driver reports.
   *
   * @return the dialect, or {@code null} if none fits
   */
  static @Nullable Dialect of(String productName) {
    if (productName.equalsIgnoreCase("PostgreSQL")) {
      return new PostgresDialect();
    }
    if (productName.equalsIgnoreCase("MariaDB") || productName.equalsIgnoreCase("MySQL")) {
      return new MariaDbDialect(productName.equalsIgnoreCase("MySQL") ? "MySQL" : "MariaDB");
    }
    return null;
  }
}
