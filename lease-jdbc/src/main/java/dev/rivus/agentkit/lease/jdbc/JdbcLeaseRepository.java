/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.StoreLost;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A lease repository in a shared SQL database, for processes on many machines; reached through any
 * {@link DataSource} (the application brings the driver and a pool, such as HikariCP). PostgreSQL
 * and MariaDB are supported, chosen by the product name the driver reports; a database that calls
 * itself MySQL is treated as MariaDB, untested.
 *
 * <p>Two tables: the records, and the fences (the generation of each key's last acquisition), made
 * by {@link #createSchema} from the DDL files shipped beside this class and checked by {@link
 * #open} (their comments name them and the schema version). An acquisition is one short transaction
 * that raises the key's fence row, then writes the record conditionally ({@code UPDATE ... WHERE
 * key_hash = ? AND revision = ? AND generation < ?}, or an insert that fails cleanly for a key that
 * has a row); a renewal or a release is one conditional {@code UPDATE} that keeps the generation.
 * Every write commits durably, also on a PostgreSQL session whose {@code synchronous_commit} is
 * off. No record row written is a {@link RevisionConflict}.
 *
 * <p>{@link #inFencedTransaction(Lease, FencedTransaction)} runs the caller's SQL in a transaction
 * that commits only while the lease is still the holder's. The key lock of a key is a session lock
 * ({@code pg_try_advisory_lock}, or MariaDB's {@code GET_LOCK}), held on a connection of its own
 * until the key lock is closed, at most {@link JdbcOptions#keyLockLimit()} at once; it dies with
 * its connection, which {@link KeyLock#isHeld()} reports.
 *
 * <p>Keys are stored as bytes and only ever bound as parameters; the table name comes from {@link
 * JdbcOptions}, which validates it. Pruning turns old tombstones into floors in place (the row
 * stays, state {@code PRUNED}), so a key's generations keep rising and its revisions never repeat.
 *
 * <p>Thread-safe. {@link #close()} closes nothing of the data source, which stays the
 * application's.
 */
public final class JdbcLeaseRepository implements PrunableLeaseRepository {

  /**
   * The silence limit of a key lock taken with {@link #lockKey(String)}: the server ends its
   * session once its holder has neither asked {@link KeyLock#isHeld()} nor closed it for this long
   * (plus {@link #KEY_LOCK_SILENCE_MARGIN}). The manager takes its key locks with a limit of its
   * own, the lease's TTL plus its grace.
   */
  public static final Duration DEFAULT_KEY_LOCK_SILENCE_LIMIT = Duration.ofMinutes(5);

  /**
   * What the server's bound on a key lock's silence adds to the limit asked for, so that a probe
   * that is a little late (a renewal round behind schedule, a slow answer) does not end a live
   * holder's session. MariaDB counts whole seconds, so its bound is rounded up as well.
   */
  public static final Duration KEY_LOCK_SILENCE_MARGIN = Duration.ofSeconds(1);

  private final DataSource dataSource;
  private final String table;
  private final Dialect dialect;
  private final Sql sql;
  private final Semaphore keyLockConnections;
  private final Semaphore fencedTransactions;
  private final int keyLockLimit;
  private final int networkTimeoutMillis;

  private JdbcLeaseRepository(DataSource dataSource, JdbcOptions options, Dialect dialect) {
    this.dataSource = dataSource;
    this.table = options.tableName();
    this.dialect = dialect;
    this.sql = new Sql(table, dialect);
    this.keyLockLimit = options.keyLockLimit();
    this.keyLockConnections = new Semaphore(keyLockLimit, true);
    this.fencedTransactions = new Semaphore(options.fencedTransactionLimit(), true);
    this.networkTimeoutMillis = (int) options.networkTimeout().toMillis();
  }

  /**
   * Creates the table of {@link JdbcOptions#defaults()} if it does not exist, then opens the
   * repository on it.
   *
   * @param dataSource where to connect
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     tables cannot be created, or a table of that name is someone else's, of another schema
   *     version, or lacks a column
   * @throws NullPointerException if {@code dataSource} is null
   */
  public static JdbcLeaseRepository create(DataSource dataSource) {
    return create(dataSource, JdbcOptions.defaults());
  }

  /**
   * Creates the table if it does not exist ({@link #createSchema}), then opens the repository on it
   * ({@link #open(DataSource, JdbcOptions)}).
   *
   * @param dataSource where to connect
   * @param options the table
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     tables cannot be created, or a table of that name is someone else's, of another schema
   *     version, or lacks a column
   * @throws NullPointerException if an argument is null
   */
  public static JdbcLeaseRepository create(DataSource dataSource, JdbcOptions options) {
    createSchema(dataSource, options);
    return open(dataSource, options);
  }

  /**
   * Opens the repository on the table of {@link JdbcOptions#defaults()}, which must exist.
   *
   * @param dataSource where to connect
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or a table
   *     does not exist, is someone else's, is of another schema version, or lacks a column
   * @throws NullPointerException if {@code dataSource} is null
   */
  public static JdbcLeaseRepository open(DataSource dataSource) {
    return open(dataSource, JdbcOptions.defaults());
  }

  /**
   * Opens the repository on existing tables, after checking that they are this library's, of the
   * schema version it reads, with the columns it needs.
   *
   * @param dataSource where to connect
   * @param options the table
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or a table
   *     does not exist, is someone else's, is of another schema version, or lacks a column
   * @throws NullPointerException if an argument is null
   */
  public static JdbcLeaseRepository open(DataSource dataSource, JdbcOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    String table = options.tableName();
    try (Connection connection = dataSource.getConnection()) {
      Dialect dialect = dialect(connection, table);
      JdbcLeaseRepository repository = new JdbcLeaseRepository(dataSource, options, dialect);
      Schema.check(connection, dialect, repository.sql, table);
      return repository;
    } catch (SQLException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot open the lease table '" + table + "': " + describe(e), e);
    }
  }

  /**
   * Creates the lease table and its fence table if they do not exist, with the statements of the
   * DDL file shipped beside this class ({@code postgresql.sql} or {@code mariadb.sql}); safe beside
   * another process doing the same. Needs the right to create tables; applications whose migrations
   * own the schema (Flyway, Liquibase) run that file instead and call {@link #open(DataSource,
   * JdbcOptions)}.
   *
   * @param dataSource where to connect
   * @param options the table
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     tables cannot be created
   * @throws NullPointerException if an argument is null
   */
  public static void createSchema(DataSource dataSource, JdbcOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    String table = options.tableName();
    try (Connection connection = dataSource.getConnection()) {
      Dialect dialect = dialect(connection, table);
      autoCommit(connection);
      Schema.create(connection, dialect, table);
    } catch (SQLException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot create the lease table '" + table + "': " + describe(e), e);
    }
  }

  private static Dialect dialect(Connection connection, String table) throws SQLException {
    String product = connection.getMetaData().getDatabaseProductName();
    Dialect dialect = Dialect.of(product);
    if (dialect == null) {
      throw new LeaseRepositoryFailure(
          null,
          "the lease table '"
              + table
              + "' is on "
              + product
              + ", which JdbcLeaseRepository does not support; it supports PostgreSQL and"
              + " MariaDB",
          null);
    }
    return dialect;
  }

  /**
   * Returns the name of the table.
   *
   * @return the table name
   */
  public String tableName() {
    return table;
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    byte[] keyBytes = KeyBytes.encode(LeaseKeys.requireValid(key));
    return withConnection(
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

  @Override
  public List<LeaseSnapshot> loadAll() {
    return withConnection(
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

  @Override
  public void save(LeaseWrite write) {
    Objects.requireNonNull(write, "write");
    byte[] keyBytes = KeyBytes.encode(write.key());
    boolean saved =
        withConnection(
            write.key(), "save", connection -> execute(connection, write, keyBytes) == 1);
    if (!saved) {
      throw new RevisionConflict(write.key(), write.expectedRevision(), -1);
    }
  }

  /**
   * Saves each write as {@link #save} does, on one connection: the renewals and releases (the
   * manager's heartbeat) in one JDBC batch, acquisitions one by one.
   */
  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
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
    withConnection(
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
   * The updates of one kind, grouped by statement, in one batch each; counts in the given order.
   */
  private int[] batch(Connection connection, List<LeaseWrite> writes) throws SQLException {
    int[] counts = new int[writes.size()];
    if (writes.isEmpty()) {
      return counts;
    }
    // Renewals and releases keep the generation, so they share one statement.
    boolean lighter = mayBeLost(writes);
    try (PreparedStatement update = connection.prepareStatement(sql.updateSameGeneration())) {
      for (LeaseWrite write : writes) {
        sql.bindSameGeneration(update, KeyBytes.encode(write.key()), write, lighter);
        update.addBatch();
      }
      int[] batchCounts = update.executeBatch();
      System.arraycopy(batchCounts, 0, counts, 0, Math.min(batchCounts.length, counts.length));
      if (batchCounts.length < counts.length) {
        Arrays.fill(counts, batchCounts.length, counts.length, Statement.SUCCESS_NO_INFO);
      }
    }
    return counts;
  }

  /** Executes the conditional statement of one write; returns the rows written. */
  private int execute(Connection connection, LeaseWrite write, byte[] keyBytes)
      throws SQLException {
    if (write.raisesGeneration()) {
      return dialect.writeAcquisition(connection, sql, write, keyBytes);
    }
    try (PreparedStatement update = connection.prepareStatement(sql.updateSameGeneration())) {
      sql.bindSameGeneration(update, keyBytes, write, mayBeLost(List.of(write)));
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

  /**
   * Runs work in one transaction on the connection, then commits if {@code commit} accepts its
   * result and rolls back otherwise (or if it throws); the connection is in auto-commit mode again
   * after.
   */
  private static <T> T inTransaction(Connection connection, Work<T> work, Predicate<T> commit)
      throws SQLException {
    connection.setAutoCommit(false);
    boolean committed = false;
    try {
      T result = work.run(connection);
      if (commit.test(result)) {
        connection.commit();
        committed = true;
      }
      return result;
    } finally {
      if (!committed) {
        rollbackQuietly(connection);
      }
      try {
        connection.setAutoCommit(true);
      } catch (SQLException | RuntimeException broken) {
        // a broken connection: the pool finds it out and drops it
      }
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException | RuntimeException broken) {
      // nothing was committed; a broken connection is dropped by the pool
    }
  }

  @Override
  public int prune(Duration olderThan) {
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
    return withConnection(
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

  /**
   * Takes the key lock with the silence limit {@link #DEFAULT_KEY_LOCK_SILENCE_LIMIT}; see {@link
   * #lockKey(String, Duration)}. A holder that keeps a key lock longer than that calls {@link
   * KeyLock#isHeld()} more often.
   */
  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    return lockKey(key, DEFAULT_KEY_LOCK_SILENCE_LIMIT);
  }

  /**
   * Takes the key's advisory lock on a connection of its own, whose session the server ends once it
   * has been silent for {@code silenceLimit} plus {@link #KEY_LOCK_SILENCE_MARGIN}, which frees the
   * lock for another holder: on PostgreSQL 14 and later by {@code idle_session_timeout}, with the
   * server's TCP keepalives as a backstop (the only bound on older versions, where a holder whose
   * machine still answers, but whose process is stopped, keeps the lock); on MariaDB by {@code
   * wait_timeout}. These are settings of that session only, given back before the connection goes
   * back to its pool. {@link KeyLock#isHeld()} sends the server a command, which keeps the session
   * alive.
   *
   * <p>At most {@link JdbcOptions#keyLockLimit()} key locks of this repository hold or wait with a
   * connection at once; beyond that, callers wait for one to close without holding a connection, so
   * key locks never take the connections that renewals need. Both waits end with {@link
   * InterruptedException} when the thread is interrupted, as the manager does on loss.
   */
  @Override
  public KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
    byte[] keyBytes = KeyBytes.encode(LeaseKeys.requireValid(key));
    Objects.requireNonNull(silenceLimit, "silenceLimit");
    if (silenceLimit.isNegative() || silenceLimit.isZero()) {
      throw new IllegalArgumentException("silenceLimit must be positive, was " + silenceLimit);
    }
    Duration silenceBound = silenceLimit.plus(KEY_LOCK_SILENCE_MARGIN);
    long lockId = KeyBytes.lockId(table, keyBytes);
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before taking the key lock of '" + key + "'");
    }
    keyLockConnections.acquire();
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      keyLockConnections.release();
      throw failure(key, "take the key lock of", e);
    } catch (RuntimeException | Error e) {
      keyLockConnections.release();
      throw e;
    }
    NetworkBound bound = null;
    Dialect.SessionSettings settings = null;
    try {
      autoCommit(connection);
      // Every call of the key lock is bounded, so that a wait on a dead network still ends, and
      // sees the interrupt of a loss.
      bound = NetworkBound.apply(connection, networkTimeoutMillis);
      // Before the lock is taken, so that no moment of holding it is unbounded.
      settings = dialect.boundSilence(connection, silenceBound);
      return JdbcKeyLock.take(
          connection, dialect, lockId, key, bound, settings, keyLockConnections::release);
    } catch (SQLException e) {
      giveBack(connection, bound, settings);
      throw failure(key, "take the key lock of", e);
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
      abortQuietly(connection);
    }
    if (bound != null) {
      bound.restore();
    }
    closeQuietly(connection);
    keyLockConnections.release();
  }

  // ---- fenced transactions ----

  /**
   * Runs {@code work} in one transaction of this repository's database that commits only if the
   * lease is still this holder's: it first takes a share lock on the key's fence row and checks
   * that the generation there and in the record is the lease's and that the record is held; if not,
   * it rolls back and throws {@link LeaseLost}, and nothing of the work is written. A successor's
   * acquisition raises the fence row first, so it waits until this transaction ends: whatever the
   * work commits, it commits before any successor holds the key. Renewals do not touch the fence
   * row and are never held up by a fenced transaction.
   *
   * <p>The work gets the connection in a transaction (auto-commit off) and must neither commit,
   * roll back nor close it. A running transaction delays a successor's acquisition, which waits for
   * it in bounded attempts of {@value Dialect#ACQUISITION_LOCK_WAIT_MILLIS} ms; the server ends one
   * that stays idle for longer than the lease's TTL (a holder cut off or stopped in the middle), so
   * a stalled holder cannot keep its successor out. A loss does not end this form's transaction
   * while a statement runs (JDBC calls answer no interrupt): run it inside {@link Lease#runFenced}
   * with {@link #inFencedTransaction(FencingToken, FencedTransaction)}, which does, or bound long
   * statements yourself (a statement timeout). At most {@link JdbcOptions#fencedTransactionLimit()}
   * fenced transactions of this repository run at once, each on a connection of its data source;
   * more wait for a turn.
   *
   * @param lease the lease the work needs
   * @param work the work; it writes through the connection it is given
   * @param <T> the work's result type
   * @return what the work returned, after the commit
   * @throws LeaseLost if the lease is not held here any more, or the database shows a successor, a
   *     release or no record; nothing was committed
   * @throws SQLException if the work, the check or the commit failed; nothing was committed, except
   *     by a commit whose outcome the failure leaves unknown
   * @throws InterruptedException if interrupted while waiting for a turn ({@link
   *     JdbcOptions#fencedTransactionLimit()})
   * @throws NullPointerException if an argument is null
   */
  public <T extends @Nullable Object> T inFencedTransaction(Lease lease, FencedTransaction<T> work)
      throws SQLException, InterruptedException {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(work, "work");
    return fencedTransaction(lease.key(), lease.generation(), localLoss(lease), null, work);
  }

  /**
   * Like {@link #inFencedTransaction(Lease, FencedTransaction)}, for fenced work that has the token
   * of {@link Lease#runFenced}, and ended by the lease's loss: if the lease is lost while the
   * transaction runs, its connection is aborted ({@link java.sql.Connection#abort}, on a thread of
   * its own), so that a statement blocked on a lock, a long query or a cut network ends at once
   * instead of at its timeout; the transaction then commits nothing and this throws {@link
   * LeaseLost} ({@code runFenced} reports the lease's own loss, with its reason). A loss after the
   * commit was sent leaves its outcome unknown ({@link SQLException}), as a broken connection does;
   * if it committed, it did so before any successor held the key. The server ends the transaction
   * too (MariaDB's driver sends {@code KILL} on a new connection, so on a cut network its abort
   * ends at its connect timeout or when the network heals; on PostgreSQL 14 and later the server
   * checks every second that a running statement's client is still there). Under {@link
   * Lease#runFencedUninterruptibly} nothing is aborted: the transaction is left to settle.
   *
   * @param token the fencing token of the running fenced work
   * @param work the work; it writes through the connection it is given
   * @param <T> the work's result type
   * @return what the work returned, after the commit
   * @throws LeaseLost if the lease is not held here any more, the database shows a successor, a
   *     release or no record, or the loss aborted the transaction; nothing was committed
   * @throws SQLException if the work, the check or the commit failed; nothing was committed, except
   *     by a commit whose outcome the failure leaves unknown
   * @throws InterruptedException if interrupted while waiting for a turn ({@link
   *     JdbcOptions#fencedTransactionLimit()})
   * @throws NullPointerException if an argument is null
   */
  public <T extends @Nullable Object> T inFencedTransaction(
      FencingToken token, FencedTransaction<T> work) throws SQLException, InterruptedException {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(work, "work");
    LeaseLost lost =
        token.isHeld()
            ? null
            : new LeaseLost(token.key(), token.generation(), LeaseLost.Reason.EXPIRED, null, null);
    return fencedTransaction(token.key(), token.generation(), lost, token, work);
  }

  /**
   * The check of {@link #inFencedTransaction(Lease, FencedTransaction)}, for a transaction the
   * caller runs (a framework's transaction on a connection of this repository's database): takes a
   * share lock on the key's fence row, held until that transaction ends, and checks that the
   * generation is still the current holder's. Call it before the transaction's writes.
   *
   * @param connection a connection in a transaction (auto-commit off), on this repository's
   *     database
   * @param key the lease key
   * @param generation the lease's generation
   * @throws LeaseLost if the database shows a successor, a release or no record; roll back
   * @throws SQLException if the check failed
   * @throws IllegalStateException if the connection is in auto-commit mode, where the lock would
   *     end with the check
   * @throws NullPointerException if an argument is null
   */
  public void verifyFence(Connection connection, String key, long generation) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    LeaseKeys.requireValid(key);
    if (connection.getAutoCommit()) {
      throw new IllegalStateException(
          "verifyFence needs a connection in a transaction (auto-commit off): in auto-commit"
              + " mode the fence row's lock would end with the check");
    }
    // The record is read on a connection of its own, outside the caller's transaction (see
    // fencedTransaction); the fence row in it decides.
    LeaseSnapshot current = load(key).orElse(null);
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
    fencedTransactions.acquire();
    try (Connection connection = dataSource.getConnection();
        AbortOnLoss abort = AbortOnLoss.watch(token, connection)) {
      try {
        autoCommit(connection);
        // Read before the transaction, so that no isolation level (MariaDB's SERIALIZABLE turns
        // plain reads into share locks) makes the record's renewals wait for the transaction.
        LeaseSnapshot current = readRecord(connection, key, keyHash);
        Duration idleBound = idleBound(key, generation, current);
        dialect.beforeFencedTransaction(connection, idleBound);
        try {
          T result =
              inTransaction(
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
            abortQuietly(connection); // never lend out a session with our setting
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
      fencedTransactions.release();
    }
  }

  /** The loss of a fenced transaction's lease aborted it before its commit: nothing committed. */
  private static LeaseLost abortedByLoss(String key, long generation, @Nullable Exception failure) {
    return new LeaseLost(key, generation, LeaseLost.Reason.EXPIRED, null, failure);
  }

  /**
   * How long a fenced transaction may stay idle on the server: the lease's TTL. A holder silent for
   * that long has lost its lease anyway, and the server then ends the transaction, freeing the
   * fence row for a successor.
   */
  private Duration idleBound(String key, long generation, @Nullable LeaseSnapshot current) {
    if (current == null) {
      throw missing(key, generation, null, table);
    }
    Duration ttl = current.ttl();
    return ttl.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : ttl;
  }

  private @Nullable LeaseSnapshot readRecord(Connection connection, String key, byte[] keyHash)
      throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(sql.selectOne())) {
      select.setBytes(1, keyHash);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? snapshot(key, row) : null;
      }
    }
  }

  /**
   * Locks the fence row and checks it and the record, read before: the fence row decides (no
   * acquisition can commit while the lock is held); the record tells a release, and what to report.
   */
  private void checkFence(
      Connection connection,
      String key,
      long generation,
      byte[] keyHash,
      @Nullable LeaseSnapshot current,
      Duration idleBound)
      throws SQLException {
    long fenced = dialect.lockFence(connection, sql, keyHash, idleBound);
    if (current == null) {
      throw missing(key, generation, null, table);
    }
    if (fenced < 0) {
      throw missing(key, generation, current, sql.fenceTable());
    }
    if (fenced != generation || current.generation() != generation) {
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
                + (current == null ? "record" : "fence row")
                + " of lease '"
                + key
                + "' is missing from "
                + dialect.name()
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

  /** Closes nothing: the data source is the application's, and key locks are closed by holders. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "JdbcLeaseRepository[" + dialect.name() + " table " + table + "]";
  }

  // ---- connections and failures ----

  private interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /**
   * Runs work on a connection of its own in auto-commit mode. A pending interrupt is set aside
   * while it runs and restored after: an interrupt must not break a write halfway (a pool's wait
   * would end, leaving a release unwritten), and JDBC calls do not answer interrupts anyway.
   */
  private <T> T withConnection(@Nullable String key, String what, Work<T> work) {
    boolean interrupted = Thread.interrupted();
    try (Connection connection = dataSource.getConnection()) {
      NetworkBound bound = NetworkBound.apply(connection, networkTimeoutMillis);
      try {
        autoCommit(connection);
        return work.run(connection);
      } finally {
        bound.restore();
      }
    } catch (SQLException e) {
      if (dialect.isUndefinedTable(e)) {
        throw new StoreLost(
            "the lease table '"
                + table
                + "' no longer exists in this "
                + dialect.name()
                + " database: it was dropped after the repository was opened",
            e);
      }
      throw failure(key, what, e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private LeaseRepositoryFailure failure(@Nullable String key, String what, SQLException e) {
    String subject = key == null ? "" : " lease '" + key + "'";
    return new LeaseRepositoryFailure(
        key,
        "cannot "
            + what
            + subject
            + " in "
            + dialect.name()
            + " table '"
            + table
            + "': "
            + describe(e),
        e);
  }

  private LeaseSnapshot snapshot(@Nullable String key, ResultSet row) throws SQLException {
    try {
      return Sql.snapshot(row);
    } catch (IllegalArgumentException corrupt) {
      throw new LeaseRepositoryFailure(
          key,
          "a corrupt record in "
              + dialect.name()
              + " table '"
              + table
              + "': "
              + corrupt.getMessage(),
          corrupt);
    }
  }

  private static void autoCommit(Connection connection) throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.setAutoCommit(true);
    }
  }

  /**
   * Aborts the connection, then lets its pool see that it is broken: an abort goes past the pool
   * (HikariCP passes it to the driver and would lend the dead connection out again once it is
   * closed, within half a second without checking it), while a statement that fails with a
   * connection error (SQLState 08...) makes a pool that takes those as fatal drop it.
   *
   * @return false if the driver or pool refused to abort (the connection may still be open)
   */
  static boolean abortQuietly(Connection connection) {
    try {
      connection.abort(Runnable::run);
    } catch (SQLException | RuntimeException notAborted) {
      return false;
    }
    try (Statement probe = connection.createStatement()) {
      probe.execute("SELECT 1");
    } catch (SQLException | RuntimeException expected) {
      // the connection is gone, and its pool has seen it fail
    }
    return true;
  }

  static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException ignored) {
      // the connection is given up either way
    }
  }

  static String describe(SQLException e) {
    return e.getMessage() + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")");
  }
}
