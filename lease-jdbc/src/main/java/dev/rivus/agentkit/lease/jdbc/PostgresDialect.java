/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.rivus.agentkit.lease.LeaseWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL (9.5 or later, for {@code ON CONFLICT}).
 *
 * <p>An acquisition is one statement in a transaction of its own: a data-modifying {@code WITH}
 * that raises the generation row ({@code INSERT ... ON CONFLICT DO UPDATE}, which waits for the
 * share locks of fenced transactions) and whose result the record's conditional {@code UPDATE} (or
 * {@code INSERT ... ON CONFLICT DO NOTHING}) joins, so the generation row is always locked before
 * the record row. Every write commits durably even on a session whose {@code synchronous_commit}
 * the application turned off: the statement raises it for its own transaction ({@code
 * set_config(..., true)} in a one-row {@code FROM}), so it costs no extra round trip and changes
 * nothing of the session for the pool's next user.
 */
final class PostgresDialect implements Dialect {

  /** How often a fenced transaction's statement checks that its client is still connected. */
  static final int CLIENT_CHECK_MILLIS = 1000;

  /** Serializes {@link #createTables} per table across sessions. */
  private static final String SCHEMA_LOCK = "SELECT pg_advisory_xact_lock(?)";

  /** The last table's acquisition statements (a repository has one table); racy but idempotent. */
  private volatile @Nullable Acquisitions acquisitions;

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public String schemaFile() {
    return "postgresql.sql";
  }

  /**
   * In one transaction under an advisory lock of the table's name: without it, two sessions running
   * {@code CREATE TABLE IF NOT EXISTS} at once can fail on the catalog's unique index, and the
   * comments would be written on a table that someone else made. So a table's statements run only
   * if that table does not exist: a missing generation table is made beside an existing record
   * table.
   */
  @Override
  public void createTables(Connection connection, String table, List<String> statements)
      throws SQLException {
    connection.setAutoCommit(false);
    try {
      try (PreparedStatement lock = connection.prepareStatement(SCHEMA_LOCK)) {
        // No table is named so (JdbcOptions allows no '-' or space): no key lock shares this id.
        lock.setLong(1, KeyBytes.lockId("lease-jdbc schema", table.getBytes(UTF_8)));
        lock.executeQuery().close();
      }
      Set<String> existing = new HashSet<>();
      for (String name : List.of(table, Schema.generationTable(table))) {
        if (tableComment(connection, name).exists()) {
          existing.add(name);
        }
      }
      try (Statement statement = connection.createStatement()) {
        for (String sql : statements) {
          if (!existing.contains(Schema.tableOf(sql))) {
            statement.execute(sql);
          }
        }
      }
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  @Override
  public TableComment tableComment(Connection connection, String table) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT to_regclass(?) IS NOT NULL, obj_description(to_regclass(?), 'pg_class')")) {
      select.setString(1, table);
      select.setString(2, table);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return new TableComment(row.getBoolean(1), row.getString(2));
      }
    }
  }

  @Override
  public int writeAcquisition(Connection connection, Sql sql, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    try (PreparedStatement acquire =
        connection.prepareStatement(acquisitions(sql).of(write.expectedRevision() == 0))) {
      byte[] keyHash = KeyBytes.hash(keyBytes);
      acquire.setBytes(1, keyHash);
      int next;
      if (write.expectedRevision() == 0) {
        acquire.setBytes(2, keyBytes);
        next = Sql.bindRecord(acquire, 3, write.snapshot());
        acquire.setBytes(next++, keyHash);
      } else {
        next = Sql.bindRecord(acquire, 2, write.snapshot());
        acquire.setBytes(next++, keyHash);
        acquire.setLong(next++, write.expectedRevision());
        acquire.setLong(next++, write.snapshot().generation());
      }
      acquire.setLong(next, write.snapshot().generation());
      try (ResultSet written = acquire.executeQuery()) {
        written.next();
        return written.getInt(1);
      }
    } catch (SQLException e) {
      if (isRaceLost(e) || isLockWaitTimeout(e)) {
        return 0;
      }
      throw e;
    }
  }

  /**
   * The two acquisition statements of the table, built once: building one (over a kilobyte) and
   * hashing it for the driver's statement cache took a tenth of a cycle's client time.
   */
  private Acquisitions acquisitions(Sql sql) {
    Acquisitions built = acquisitions;
    if (built == null || !built.table().equals(sql.table())) {
      built = new Acquisitions(sql.table(), acquisition(sql, true), acquisition(sql, false));
      acquisitions = built;
    }
    return built;
  }

  /** The acquisition statements of one table: of a new key's record, and of an existing one. */
  private record Acquisitions(String table, String insert, String update) {
    String of(boolean newRecord) {
      return newRecord ? insert : update;
    }
  }

  /**
   * One statement for the whole batch ({@link PostgresBatches}), one transaction and one flush. A
   * key whose generation row someone holds locked (a fenced transaction) is then written alone,
   * waiting for the lock as {@link #writeAcquisition} does; if the statement itself fails on a lock
   * (a record row a concurrent writer holds, beyond the bound) or a deadlock, nothing of it was
   * written and every key is written alone.
   */
  @Override
  public boolean[] writeAcquisitions(Connection connection, Sql sql, List<LeaseWrite> writes)
      throws SQLException {
    if (writes.size() < 2) {
      return Dialect.super.writeAcquisitions(connection, sql, writes);
    }
    PostgresBatches.Acquired[] outcomes;
    try {
      outcomes = batches(sql).writeAcquisitions(connection, writes);
    } catch (SQLException e) {
      if (isRaceLost(e) || isLockWaitTimeout(e)) {
        return Dialect.super.writeAcquisitions(connection, sql, writes);
      }
      throw e;
    }
    boolean[] written = new boolean[writes.size()];
    for (int i = 0; i < written.length; i++) {
      written[i] =
          switch (outcomes[i]) {
            case WRITTEN -> true;
            case CONFLICT -> false;
            case LOCKED -> {
              LeaseWrite write = writes.get(i);
              yield writeAcquisition(connection, sql, write, KeyBytes.encode(write.key())) == 1;
            }
          };
    }
    return written;
  }

  /**
   * {@value PostgresBatches#RENEWALS_PER_STATEMENT} rows per statement ({@link PostgresBatches}).
   */
  @Override
  public boolean[] writeSameGeneration(
      Connection connection, Sql sql, List<LeaseWrite> writes, boolean lighter)
      throws SQLException {
    return batches(sql).writeSameGeneration(connection, writes, lighter);
  }

  private PostgresBatches batches(Sql sql) {
    return new PostgresBatches(
        sql, commitMode(), durableCommit(), ReleaseNotices.channel(sql.table()));
  }

  /**
   * One statement in auto-commit, so one round trip and one flush. Its parts run in this order,
   * each pulled by the next: the lock-wait bound is set; the generation row is locked ({@code FOR
   * UPDATE}, which waits for the share locks of fenced transactions) before the record row, whose
   * conditional write's {@code WHERE} needs the lock's count first (an init plan, evaluated before
   * any row is read); the generation row is raised only from the record row written, after it (an
   * unreferenced {@code WITH} part runs last). A conflict writes neither row and is no error.
   */
  private static String acquisition(Sql sql, boolean newRecord) {
    String table = sql.table();
    String lockGenerationRow =
        "WITH lock_bound AS (SELECT set_config('lock_timeout', '"
            + Dialect.ACQUISITION_LOCK_WAIT_MILLIS
            + "', true) AS lock_timeout), fence_lock AS (SELECT f.key_hash FROM "
            + sql.generationTable()
            + " f, lock_bound WHERE f.key_hash = ? FOR UPDATE OF f), ";
    String generationRowLocked = "(SELECT count(*) FROM fence_lock) >= 0";
    String writeRecord =
        newRecord
            ? "written AS (INSERT INTO "
                + table
                + " ("
                + Sql.RECORD_COLUMNS
                + ", key_hash) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM "
                + durableCommitItem()
                + " WHERE "
                + generationRowLocked
                + " ON CONFLICT (key_hash) DO NOTHING RETURNING key_hash), "
            : "written AS ("
                + sql.updateRecordPrefix()
                + " FROM "
                + durableCommitItem()
                + " WHERE "
                + table
                + ".key_hash = ? AND revision = ? AND "
                + table
                + ".generation < ? AND "
                + generationRowLocked
                + " RETURNING "
                + table
                + ".key_hash), ";
    return lockGenerationRow
        + writeRecord
        + "raised AS (INSERT INTO "
        + sql.generationTable()
        + " (key_hash, generation) SELECT key_hash, ? FROM written"
        + " ON CONFLICT (key_hash) DO UPDATE SET generation = EXCLUDED.generation)"
        + " SELECT count(*) FROM written";
  }

  /** Serialization failure or deadlock: the transaction was rolled back, nothing written. */
  private static boolean isRaceLost(SQLException failure) {
    return "40001".equals(failure.getSQLState()) || "40P01".equals(failure.getSQLState());
  }

  /**
   * As {@link #durableCommit()}, or {@code off} when the bound parameter is {@code true}: a batch
   * of releases only.
   */
  @Override
  public String commitMode() {
    return "(SELECT set_config('synchronous_commit', CASE WHEN ? THEN 'off'"
        + " WHEN current_setting('synchronous_commit') = 'off' THEN 'on'"
        + " ELSE current_setting('synchronous_commit') END, true) AS mode) AS commit_mode";
  }

  /**
   * {@code pg_notify} in a subquery of its own: a release that writes its row is joined with it, so
   * the notice is sent whenever the release lands (and sometimes for one that conflicts, which only
   * wakes a waiter to look again).
   */
  @Override
  public String releaseNotice(String channel) {
    return "(SELECT pg_notify('" + channel + "', ?) AS sent) AS release_notice";
  }

  @Override
  public ReleaseNotices releaseNotices(String channel) {
    return new PostgresReleaseNotices(channel);
  }

  /**
   * Raises {@code synchronous_commit} from {@code off} to {@code on} for the statement's own
   * transaction ({@code set_config(..., true)}, so nothing is left on the pooled session), and
   * leaves every other value, all of which flush locally before the commit returns. Evaluated
   * whenever the statement writes a row, since the row is joined with it.
   */
  @Override
  public String durableCommit() {
    return durableCommitItem();
  }

  private static String durableCommitItem() {
    return "(SELECT CASE WHEN current_setting('synchronous_commit') = 'off'"
        + " THEN set_config('synchronous_commit', 'on', true) END AS raised) AS durable_commit";
  }

  /**
   * Also sets, for the transaction alone and where the server has it (PostgreSQL 14), {@code
   * client_connection_check_interval}: a statement whose client went away (its connection aborted
   * on the lease's loss, its process killed) then ends within {@value #CLIENT_CHECK_MILLIS} ms,
   * even while it waits for a lock, instead of holding the generation row until it finishes.
   */
  @Override
  public long lockGenerationRow(Connection connection, Sql sql, byte[] keyHash, Duration idleBound)
      throws SQLException {
    try (PreparedStatement lock =
        connection.prepareStatement(
            "SELECT f.generation FROM "
                + sql.generationTable()
                + " f, (SELECT set_config('idle_in_transaction_session_timeout', ?, true))"
                + " AS idle_bound, (SELECT CASE WHEN"
                + " current_setting('client_connection_check_interval', true) IS NOT NULL"
                + " THEN set_config('client_connection_check_interval', '"
                + CLIENT_CHECK_MILLIS
                + "', true) END) AS client_check WHERE f.key_hash = ? FOR SHARE OF f")) {
      lock.setString(1, millis(idleBound));
      lock.setBytes(2, keyHash);
      try (ResultSet row = lock.executeQuery()) {
        return row.next() ? row.getLong(1) : -1;
      }
    }
  }

  private static String millis(Duration bound) {
    return Long.toString(Math.max(1, bound.toMillis()));
  }

  /**
   * Nothing: {@link #lockGenerationRow} bounds the transaction's idle time, for that transaction
   * only.
   */
  @Override
  public void beforeFencedTransaction(Connection connection, Duration idleBound) {}

  @Override
  public void afterFencedTransaction(Connection connection) {}

  /** lock_not_available (55P03): {@code lock_timeout} ran out. */
  @Override
  public boolean isLockWaitTimeout(SQLException failure) {
    return "55P03".equals(failure.getSQLState());
  }

  @Override
  public String tryLock() {
    return "SELECT pg_try_advisory_lock(?), pg_backend_pid()";
  }

  @Override
  public String unlock() {
    return "SELECT pg_advisory_unlock(?)";
  }

  /**
   * The settings of the key lock's session that bound its silence, read and set in one round trip:
   * {@code idle_session_timeout} (PostgreSQL 14 and later, which ends a session idle for that long;
   * older servers have no such setting, {@code current_setting(..., true)} is null there, and it is
   * left alone), and the server's TCP keepalives (idle, interval, count), which end a session whose
   * client's machine or network is gone, on every version, though not one whose client is merely
   * stopped. The previous values are read in a subquery that {@code OFFSET 0} keeps from being
   * merged into the outer one, so they are read before anything is set.
   */
  private static final String BOUND_SILENCE =
      "SELECT previous.idle, previous.keepalives_idle, previous.keepalives_interval,"
          + " previous.keepalives_count,"
          + " CASE WHEN previous.idle IS NOT NULL"
          + " THEN set_config('idle_session_timeout', ?, false) END,"
          + " set_config('tcp_keepalives_idle', ?, false),"
          + " set_config('tcp_keepalives_interval', ?, false),"
          + " set_config('tcp_keepalives_count', ?, false)"
          + " FROM (SELECT current_setting('idle_session_timeout', true) AS idle,"
          + " current_setting('tcp_keepalives_idle') AS keepalives_idle,"
          + " current_setting('tcp_keepalives_interval') AS keepalives_interval,"
          + " current_setting('tcp_keepalives_count') AS keepalives_count OFFSET 0) AS previous";

  /** How many unanswered keepalive probes end a key lock's session. */
  static final int KEEPALIVE_COUNT = 3;

  @Override
  public SessionSettings boundSilence(Connection connection, Duration silenceBound)
      throws SQLException {
    // Keepalives count whole seconds: the first probe after idle seconds, then one every interval,
    // so that idle + count * interval is about the bound.
    long seconds = Math.max(KEEPALIVE_COUNT + 1, (silenceBound.toMillis() + 999) / 1000);
    long interval = Math.max(1, seconds / (2 * KEEPALIVE_COUNT));
    long idle = seconds - KEEPALIVE_COUNT * interval;
    String idleBefore;
    String[] keepalivesBefore = new String[3];
    try (PreparedStatement bound = connection.prepareStatement(BOUND_SILENCE)) {
      bound.setString(1, millis(silenceBound));
      bound.setString(2, Long.toString(idle));
      bound.setString(3, Long.toString(interval));
      bound.setString(4, Integer.toString(KEEPALIVE_COUNT));
      try (ResultSet row = bound.executeQuery()) {
        row.next();
        idleBefore = row.getString(1);
        for (int i = 0; i < keepalivesBefore.length; i++) {
          keepalivesBefore[i] = row.getString(i + 2);
        }
      }
    }
    return restored -> restore(restored, idleBefore, keepalivesBefore);
  }

  private static void restore(
      Connection connection, @Nullable String idleBefore, String[] keepalivesBefore)
      throws SQLException {
    try (PreparedStatement restore =
        connection.prepareStatement(
            "SELECT set_config('tcp_keepalives_idle', ?, false),"
                + " set_config('tcp_keepalives_interval', ?, false),"
                + " set_config('tcp_keepalives_count', ?, false)"
                + (idleBefore == null ? "" : ", set_config('idle_session_timeout', ?, false)"))) {
      for (int i = 0; i < keepalivesBefore.length; i++) {
        restore.setString(i + 1, keepalivesBefore[i]);
      }
      if (idleBefore != null) {
        restore.setString(4, idleBefore);
      }
      restore.executeQuery().close();
    }
  }

  @Override
  public boolean isUndefinedTable(SQLException failure) {
    return "42P01".equals(failure.getSQLState());
  }

  @Override
  public boolean isUndefinedColumn(SQLException failure) {
    return "42703".equals(failure.getSQLState());
  }
}
