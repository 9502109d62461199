/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.support.Durations;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The multi-row writes of PostgreSQL: a batch of writes as one statement whose rows come from
 * arrays ({@code unnest}), each array one bound parameter, each row compared on its own, and the
 * rows written named by {@code RETURNING}. One statement in auto-commit is one transaction with one
 * commit, durable as {@link PostgresDialect#durableCommit()} makes it. Immutable and thread-safe.
 */
final class PostgresBatches {

  /** Renewals or releases per statement: bounds a statement's size, not its parameters. */
  static final int RENEWALS_PER_STATEMENT = 10_000;

  /** What became of one acquisition of a batch. */
  enum Acquired {
    /** The record was written and the generation row raised. */
    WRITTEN,
    /** A conflict: nothing was written. */
    CONFLICT,
    /**
     * The key's generation row was locked (a fenced transaction, another acquisition): nothing was
     * written; the acquisition alone may wait for the lock.
     */
    LOCKED
  }

  /**
   * The columns of a row of the arrays, in order: the key's hash, the 12 record columns of {@link
   * Sql#bindRecord}, the expected revision; an acquisition also has the key.
   */
  private static final String COLUMNS =
      "key_hash, generation, revision, state, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle_id, ttl_nanos, updated_at_seconds,"
          + " updated_at_nanos, expected";

  private static final String ARRAYS =
      "?::bytea[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[],"
          + " ?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::integer[],"
          + " ?::bigint[]";

  private static final String SET_FROM_V =
      " SET generation = v.generation, revision = v.revision, state = v.state,"
          + " holder_host = v.holder_host, holder_boot_id = v.holder_boot_id,"
          + " holder_pid_namespace = v.holder_pid_namespace, holder_pid = v.holder_pid,"
          + " holder_process_start = v.holder_process_start, holder_handle_id = v.holder_handle_id,"
          + " ttl_nanos = v.ttl_nanos, updated_at_seconds = v.updated_at_seconds,"
          + " updated_at_nanos = v.updated_at_nanos";

  /** Starts the narrow statement of renewals, so that {@link #run} knows how to bind it. */
  private static final String NARROW_MARK = "/* renewals */ ";

  private final String renewals;
  private final String releases;
  private final String acquisitions;

  PostgresBatches(Sql sql, String commitMode, String durableCommit, String releaseChannel) {
    // Built per batch: a few string joins beside a statement of thousands of rows.
    String table = sql.table();
    renewals =
        NARROW_MARK
            + "UPDATE "
            + table
            + " t SET revision = v.revision, updated_at_seconds = v.updated_at_seconds,"
            + " updated_at_nanos = v.updated_at_nanos FROM unnest(?::bytea[], ?::bigint[],"
            + " ?::bigint[], ?::bigint[], ?::bigint[], ?::integer[]) AS v(key_hash, expected,"
            + " generation, revision, updated_at_seconds, updated_at_nanos), "
            + commitMode
            + " WHERE t.key_hash = v.key_hash AND t.revision = v.expected"
            + " AND t.generation = v.generation RETURNING t.key_hash";
    String sameGeneration =
        "UPDATE "
            + table
            + " t"
            + SET_FROM_V
            + " FROM unnest("
            + ARRAYS
            + ") AS v("
            + COLUMNS
            + "), "
            + commitMode
            + " WHERE t.key_hash = v.key_hash AND t.revision = v.expected"
            + " AND t.generation = v.generation RETURNING t.key_hash";
    // Each release written notifies the table's listeners, at commit, as a release of one key does.
    releases =
        sameGeneration
            + ", pg_notify('"
            + releaseChannel
            + "', encode(t.key_hash, 'hex')) AS notified";
    acquisitions = acquisitions(sql, durableCommit);
  }

  /**
   * The statement of a batch of acquisitions. As {@link PostgresDialect}'s one-key statement, the
   * generation rows are locked before any record row is written: {@code free}, the rows the others
   * read, is gated by a count of {@code fence_lock} (an init plan, evaluated before its first row).
   * A generation row locked by someone else is skipped, not waited for ({@code SKIP LOCKED}), so
   * one fenced transaction cannot hold up the batch: its key is written nowhere and reported {@code
   * false} in the second column, for an acquisition of its own that may wait for the lock. A key
   * without a generation row has none to lock, as for one key. The generation rows are raised from
   * the records written, last.
   */
  private static String acquisitions(Sql sql, String durableCommit) {
    String table = sql.table();
    String fence = sql.generationTable();
    return "WITH lock_bound AS (SELECT set_config('lock_timeout', '"
        + Dialect.ACQUISITION_LOCK_WAIT_MILLIS
        + "', true) AS lock_timeout), v AS (SELECT * FROM unnest("
        + ARRAYS
        + ", ?::bytea[]) AS u("
        + COLUMNS
        + ", lease_key)), fence_lock AS (SELECT f.key_hash FROM "
        + fence
        + " f, v, lock_bound WHERE f.key_hash = v.key_hash ORDER BY f.key_hash"
        + " FOR UPDATE OF f SKIP LOCKED), free AS (SELECT v.* FROM v LEFT JOIN "
        + fence
        + " g ON g.key_hash = v.key_hash LEFT JOIN fence_lock l ON l.key_hash = v.key_hash"
        + " WHERE (SELECT count(*) FROM fence_lock) >= 0"
        + " AND (g.key_hash IS NULL OR l.key_hash IS NOT NULL)), inserted AS (INSERT INTO "
        + table
        + " ("
        + Sql.RECORD_COLUMNS
        + ", key_hash) SELECT v.lease_key, v.generation, v.revision, v.state, v.holder_host,"
        + " v.holder_boot_id, v.holder_pid_namespace, v.holder_pid, v.holder_process_start,"
        + " v.holder_handle_id, v.ttl_nanos, v.updated_at_seconds, v.updated_at_nanos, v.key_hash"
        + " FROM free v, "
        + durableCommit
        + " WHERE v.expected = 0 ON CONFLICT (key_hash) DO NOTHING"
        + " RETURNING key_hash, generation), updated AS (UPDATE "
        + table
        + " t"
        + SET_FROM_V
        + " FROM free v, "
        + durableCommit
        + " WHERE t.key_hash = v.key_hash AND v.expected > 0 AND t.revision = v.expected"
        + " AND t.generation < v.generation RETURNING t.key_hash, t.generation),"
        + " written AS (SELECT key_hash, generation FROM inserted"
        + " UNION ALL SELECT key_hash, generation FROM updated), raised AS (INSERT INTO "
        + fence
        + " (key_hash, generation) SELECT key_hash, generation FROM written"
        + " ON CONFLICT (key_hash) DO UPDATE SET generation = EXCLUDED.generation)"
        + " SELECT key_hash, true FROM written UNION ALL SELECT v.key_hash, false FROM v JOIN "
        + fence
        + " g ON g.key_hash = v.key_hash LEFT JOIN fence_lock l ON l.key_hash = v.key_hash"
        + " WHERE l.key_hash IS NULL";
  }

  /**
   * Writes renewals and releases, {@value #RENEWALS_PER_STATEMENT} per statement, each statement
   * its own transaction, on a connection in auto-commit mode. Renewals change only the revision and
   * the time (see {@link LeaseWrite.Intent#RENEW}), so theirs is a narrower statement that binds
   * and sets those alone; releases write every column, and notify the table's listeners ({@link
   * ReleaseNotices}).
   *
   * @param lighter whether the transactions may commit without waiting for the flush (releases)
   * @return whether each write was saved, in order
   */
  boolean[] writeSameGeneration(Connection connection, List<LeaseWrite> writes, boolean lighter)
      throws SQLException {
    boolean[] saved = new boolean[writes.size()];
    List<Integer> renewalsAt = new ArrayList<>(writes.size());
    List<Integer> releasesAt = new ArrayList<>();
    for (int i = 0; i < writes.size(); i++) {
      (writes.get(i).intent() == LeaseWrite.Intent.RENEW ? renewalsAt : releasesAt).add(i);
    }
    run(connection, renewals, writes, renewalsAt, lighter, saved);
    run(connection, releases, writes, releasesAt, lighter, saved);
    return saved;
  }

  private static void run(
      Connection connection,
      String sql,
      List<LeaseWrite> writes,
      List<Integer> at,
      boolean lighter,
      boolean[] saved)
      throws SQLException {
    if (at.isEmpty()) {
      return;
    }
    boolean narrow = sql.startsWith(NARROW_MARK);
    try (PreparedStatement update = connection.prepareStatement(sql)) {
      for (int from = 0; from < at.size(); from += RENEWALS_PER_STATEMENT) {
        List<Integer> chunk = at.subList(from, Math.min(at.size(), from + RENEWALS_PER_STATEMENT));
        List<LeaseWrite> rows = new ArrayList<>(chunk.size());
        chunk.forEach(i -> rows.add(writes.get(i)));
        Map<Hash, Integer> index = new HashMap<>(chunk.size() * 2);
        int next =
            narrow
                ? bindRenewals(connection, update, rows, index)
                : bindRows(connection, update, rows, 0, index);
        update.setBoolean(next, lighter);
        try (ResultSet written = update.executeQuery()) {
          while (written.next()) {
            Integer i = index.get(new Hash(written.getBytes(1)));
            if (i != null) {
              saved[chunk.get(i)] = true;
            }
          }
        }
      }
    }
  }

  /**
   * Binds the 6 arrays of a renewal: the key's hash, the expected revision, the generation, the new
   * revision and time.
   *
   * @return the index of the next parameter
   */
  private static int bindRenewals(
      Connection connection,
      PreparedStatement statement,
      List<LeaseWrite> writes,
      Map<Hash, Integer> index)
      throws SQLException {
    int n = writes.size();
    byte[][] keyHashes = new byte[n][];
    long[] expected = new long[n];
    long[] generations = new long[n];
    long[] revisions = new long[n];
    long[] seconds = new long[n];
    int[] nanos = new int[n];
    for (int i = 0; i < n; i++) {
      LeaseWrite write = writes.get(i);
      LeaseSnapshot snapshot = write.snapshot();
      keyHashes[i] = KeyBytes.hash(KeyBytes.encode(write.key()));
      index.put(new Hash(keyHashes[i]), i);
      expected[i] = write.expectedRevision();
      generations[i] = snapshot.generation();
      revisions[i] = snapshot.revision();
      Instant updatedAt = snapshot.updatedAt();
      seconds[i] = updatedAt.getEpochSecond();
      nanos[i] = updatedAt.getNano();
    }
    int p = 1;
    statement.setArray(p++, connection.createArrayOf("bytea", keyHashes));
    statement.setObject(p++, expected);
    statement.setObject(p++, generations);
    statement.setObject(p++, revisions);
    statement.setObject(p++, seconds);
    statement.setObject(p++, nanos);
    return p;
  }

  /**
   * Writes acquisitions in one statement, in a transaction of its own (which sets {@code jit} off
   * for itself), on a connection in auto-commit mode, which it leaves so.
   *
   * @return what became of each, in order
   */
  Acquired[] writeAcquisitions(Connection connection, List<LeaseWrite> writes) throws SQLException {
    return Connections.inTransaction(
        connection, c -> writeAcquisitionsInTransaction(c, writes), written -> true);
  }

  /**
   * As {@link #writeAcquisitions}, in the connection's transaction, which the caller ends; for
   * tests that look at the transaction before its commit.
   */
  Acquired[] writeAcquisitionsInTransaction(Connection connection, List<LeaseWrite> writes)
      throws SQLException {
    Acquired[] outcomes = new Acquired[writes.size()];
    Arrays.fill(outcomes, Acquired.CONFLICT);
    try (Statement noJit = connection.createStatement()) {
      // The planner's estimates for arrays and an empty generation table are far off: left on,
      // the server compiles the statement (JIT), which took half a second for 100,000 rows.
      noJit.execute(
          "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_settings WHERE name = 'jit')"
              + " THEN set_config('jit', 'off', true) END"); // PostgreSQL 11 and later have it
    }
    try (PreparedStatement acquire = connection.prepareStatement(acquisitions)) {
      Map<Hash, Integer> index = new HashMap<>(writes.size() * 2);
      int next = bindRows(connection, acquire, writes, 0, index);
      byte[][] keys = new byte[writes.size()][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = KeyBytes.encode(writes.get(i).key());
      }
      acquire.setArray(next, connection.createArrayOf("bytea", keys));
      try (ResultSet rows = acquire.executeQuery()) {
        while (rows.next()) {
          Integer i = index.get(new Hash(rows.getBytes(1)));
          if (i != null) {
            outcomes[i] = rows.getBoolean(2) ? Acquired.WRITTEN : Acquired.LOCKED;
          }
        }
      }
    }
    return outcomes;
  }

  /**
   * Binds the 14 arrays of {@link #ARRAYS} from the writes, and notes where each key's hash is.
   *
   * @return the index of the next parameter
   */
  private static int bindRows(
      Connection connection,
      PreparedStatement statement,
      List<LeaseWrite> writes,
      int offset,
      Map<Hash, Integer> index)
      throws SQLException {
    int n = writes.size();
    byte[][] keyHashes = new byte[n][];
    long[] generations = new long[n];
    long[] revisions = new long[n];
    String[] states = new String[n];
    String[] hosts = new String[n];
    String[] bootIds = new String[n];
    String[] pidNamespaces = new String[n];
    long[] pids = new long[n];
    String[] processStarts = new String[n];
    String[] handles = new String[n];
    long[] ttls = new long[n];
    long[] seconds = new long[n];
    int[] nanos = new int[n];
    long[] expected = new long[n];
    for (int i = 0; i < n; i++) {
      LeaseWrite write = writes.get(i);
      LeaseSnapshot snapshot = write.snapshot();
      HolderIdentity holder = snapshot.holder();
      ProcessIdentity process = holder.process();
      keyHashes[i] = KeyBytes.hash(KeyBytes.encode(write.key()));
      index.put(new Hash(keyHashes[i]), offset + i);
      generations[i] = snapshot.generation();
      revisions[i] = snapshot.revision();
      states[i] = snapshot.state().name();
      hosts[i] = process.host();
      bootIds[i] = process.bootId();
      pidNamespaces[i] = process.pidNamespace();
      pids[i] = process.pid();
      processStarts[i] = process.processStart();
      handles[i] = holder.handleId();
      ttls[i] = Durations.saturatedNanos(snapshot.ttl());
      Instant updatedAt = snapshot.updatedAt();
      seconds[i] = updatedAt.getEpochSecond();
      nanos[i] = updatedAt.getNano();
      expected[i] = write.expectedRevision();
    }
    int p = 1;
    statement.setArray(p++, connection.createArrayOf("bytea", keyHashes));
    statement.setObject(p++, generations);
    statement.setObject(p++, revisions);
    statement.setArray(p++, connection.createArrayOf("text", states));
    statement.setArray(p++, connection.createArrayOf("text", hosts));
    statement.setArray(p++, connection.createArrayOf("text", bootIds));
    statement.setArray(p++, connection.createArrayOf("text", pidNamespaces));
    statement.setObject(p++, pids);
    statement.setArray(p++, connection.createArrayOf("text", processStarts));
    statement.setArray(p++, connection.createArrayOf("text", handles));
    statement.setObject(p++, ttls);
    statement.setObject(p++, seconds);
    statement.setObject(p++, nanos);
    statement.setObject(p++, expected);
    return p;
  }

  /** A key's hash as a map key. */
  private static final class Hash {
    private final byte[] bytes;

    Hash(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public boolean equals(@Nullable Object other) {
      return other instanceof Hash hash && Arrays.equals(bytes, hash.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }
}
