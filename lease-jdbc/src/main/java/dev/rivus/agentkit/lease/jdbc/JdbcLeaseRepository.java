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
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.support.KeyWatches;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A lease repository in a shared SQL database, for processes on many machines; reached through any
 * {@link DataSource} (the application brings the driver and a pool, such as HikariCP). PostgreSQL
 * and MariaDB are supported, chosen by the product name the driver reports; a database that calls
 * itself MySQL is treated as MariaDB, untested.
 *
 * <p>Two tables: the records, and the generation rows (the generation of each key's last
 * acquisition, in the generation table {@code <table>_fence}), created from the DDL files shipped
 * beside this class when {@link JdbcOptions#createIfMissing()} says so, and checked by {@link
 * #open} (their comments name them and the schema version). An acquisition is one short transaction
 * that raises the key's generation row, then writes the record conditionally ({@code UPDATE ...
 * WHERE key_hash = ? AND revision = ? AND generation < ?}, or an insert that fails cleanly for a
 * key that has a row), in one round trip (on PostgreSQL one statement; on MariaDB a call of the
 * table's procedure {@code <table>_acq}, made with the tables, or without it four statements); a
 * renewal or a release is one conditional {@code UPDATE} that keeps the generation. Acquisitions
 * and renewals commit durably, also on a PostgreSQL session whose {@code synchronous_commit} is
 * off; on PostgreSQL a release alone (or a batch of releases only) does not wait for the flush, as
 * a crash may lose it without harm. No record row written is a {@link RevisionConflict}.
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

  private final String table;
  private final Dialect dialect;
  private final Records records;
  private final KeyLocks keyLocks;
  private final FencedTransactions fencedTransactions;
  private final KeyWatches watches = new KeyWatches();
  private final @Nullable ReleaseListener releaseListener;

  private JdbcLeaseRepository(DataSource dataSource, JdbcOptions options, Dialect dialect) {
    this.table = options.tableName();
    this.dialect = dialect;
    Sql sql = new Sql(table, dialect);
    Connections connections = new Connections(dataSource, dialect, table, options.networkTimeout());
    this.records = new Records(connections, sql);
    this.keyLocks = new KeyLocks(connections, options.keyLockLimit());
    this.fencedTransactions =
        new FencedTransactions(connections, records, sql, options.fencedTransactionLimit());
    this.releaseListener = releaseListener(dataSource, dialect, table, watches);
  }

  /** The listener of the table's release notices, or null where the database sends none. */
  private static @Nullable ReleaseListener releaseListener(
      DataSource dataSource, Dialect dialect, String table, KeyWatches watches) {
    ReleaseNotices notices;
    try {
      notices = dialect.releaseNotices(ReleaseNotices.channel(table));
    } catch (LinkageError noDriver) {
      return null; // PostgreSQL reached through another driver than the one this module reads
    }
    return notices == null ? null : new ReleaseListener(dataSource, notices, watches, table);
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
   * Opens the repository on the table the options name, after checking that its tables are this
   * library's, of the schema version it reads, with the columns it needs. With {@link
   * JdbcOptions#createIfMissing()}, it first creates the lease table and its generation table if
   * they do not exist, with the statements of the DDL file shipped beside this class ({@code
   * postgresql.sql} or {@code mariadb.sql}, which also makes the acquisition procedure where the
   * user may create routines); that is safe beside another process doing the same, needs the right
   * to create tables, and never adopts a table that exists. Applications whose migrations own the
   * schema (Flyway, Liquibase) run that file instead and leave the option off.
   *
   * @param dataSource where to connect
   * @param options the table, whether to create it, and the limits
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or a table
   *     does not exist (and was not to be created, or could not be), is someone else's, is of
   *     another schema version, or lacks a column
   * @throws NullPointerException if an argument is null
   */
  public static JdbcLeaseRepository open(DataSource dataSource, JdbcOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    if (options.createIfMissing()) {
      Opening.createTables(dataSource, options.tableName());
    }
    Dialect dialect = Opening.checkTables(dataSource, options.tableName());
    return new JdbcLeaseRepository(dataSource, options, dialect);
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
    return records.load(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return records.loadAll();
  }

  /**
   * {@inheritDoc}
   *
   * <p>On one connection: on PostgreSQL 100,000 keys per query (an array), on MariaDB 1,000.
   */
  @Override
  public Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
    return records.loadAll(keys);
  }

  @Override
  public void save(LeaseWrite write) {
    records.save(write);
    released(write);
  }

  /**
   * Saves each write as {@link #save} does, on one connection: the renewals and releases (the
   * manager's heartbeat) in multi-row statements (PostgreSQL: 10,000 rows each, from arrays;
   * MariaDB: 1,000 rows each, all in one transaction), then the acquisitions: on PostgreSQL in one
   * statement, one durable commit, a key whose generation row a fenced transaction holds locked
   * then written alone (waiting for it as {@link #save} would); on MariaDB one by one.
   */
  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    List<SaveOutcome> outcomes = records.saveAll(writes);
    for (SaveOutcome outcome : outcomes) {
      if (outcome.isSaved()) {
        released(outcome.write());
      }
    }
    return outcomes;
  }

  /** Wakes this repository's own watches of a key its release just landed on. */
  private void released(LeaseWrite write) {
    if (write.intent() == LeaseWrite.Intent.RELEASE && releaseListener != null) {
      watches.wake(ReleaseNotices.payload(write.key()));
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>On PostgreSQL, every release's statement notifies ({@code pg_notify}, delivered at its
   * commit, on a channel named after the table), so a watch wakes on the release of any repository
   * on the table, in any process. The first watch starts a listening thread that holds one
   * connection of the data source (given back 30 s after the last watch closed, or on {@link
   * #close()}); a dropped listening connection wakes every watch (they look again) and is replaced,
   * after a backoff. A data source whose connections cannot be unwrapped to the PostgreSQL driver's
   * gives no watch once that is seen.
   *
   * <p>On MariaDB there is no watch: waiters poll.
   */
  @Override
  public Optional<KeyWatch> watchKey(String key) {
    String payload = ReleaseNotices.payload(LeaseKeys.requireValid(key));
    ReleaseListener listener = releaseListener;
    if (listener == null || !listener.isSupported()) {
      return Optional.empty();
    }
    KeyWatch watch = watches.open(payload);
    if (!listener.watching()) {
      watch.close();
      return Optional.empty();
    }
    return Optional.of(watch);
  }

  @Override
  public int prune(Duration olderThan) {
    return records.prune(olderThan);
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
    return keyLocks.lock(key, silenceLimit);
  }

  /**
   * Runs {@code work} in one transaction of this repository's database that commits only if the
   * lease is still this holder's: it first takes a share lock on the key's generation row and
   * checks that the generation there and in the record is the lease's and that the record is held;
   * if not, it rolls back and throws {@link LeaseLost}, and nothing of the work is written. A
   * successor's acquisition raises the generation row first, so it waits until this transaction
   * ends: whatever the work commits, it commits before any successor holds the key. Renewals do not
   * touch the generation row and are never held up by a fenced transaction.
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
    return fencedTransactions.run(lease, work);
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
    return fencedTransactions.run(token, work);
  }

  /**
   * The check of {@link #inFencedTransaction(Lease, FencedTransaction)}, for a transaction the
   * caller runs (a framework's transaction on a connection of this repository's database): takes a
   * share lock on the key's generation row, held until that transaction ends, and checks that the
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
    fencedTransactions.verify(connection, key, generation);
  }

  /**
   * Gives back the connection that listens for releases, if one does, and wakes every watch; closes
   * nothing of the data source, which is the application's, and key locks are closed by holders.
   */
  @Override
  public void close() {
    if (releaseListener != null) {
      releaseListener.close();
    }
  }

  @Override
  public String toString() {
    return "JdbcLeaseRepository[" + dialect.name() + " table " + table + "]";
  }
}
