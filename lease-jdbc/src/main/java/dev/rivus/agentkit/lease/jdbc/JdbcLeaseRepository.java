/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
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
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A lease repository in one table of a shared SQL database, for processes on many machines; reached
 * through any {@link DataSource} (the application brings the driver and, usually, a pool).
 * PostgreSQL and MariaDB are supported, chosen by the product name the driver reports; a database
 * that calls itself MySQL is treated as MariaDB, untested.
 *
 * <p>Each save is one conditional statement in its own transaction: for a write that expects no
 * record, an {@code INSERT ... ON CONFLICT DO NOTHING} on PostgreSQL, a plain {@code INSERT} on
 * MariaDB (its duplicate-key error is the conflict); else an {@code UPDATE ... WHERE key_hash = ?
 * AND revision = ? AND generation ...}; no row written is a {@link RevisionConflict}. Commits are
 * as durable as the database makes them (PostgreSQL's default {@code synchronous_commit} waits for
 * the flush, as does InnoDB's default {@code innodb_flush_log_at_trx_commit = 1}). The key lock of
 * a key is a session lock ({@code pg_try_advisory_lock}, or MariaDB's {@code GET_LOCK}), held on a
 * connection of its own until the key lock is closed; it dies with its connection, which {@link
 * KeyLock#isHeld()} reports.
 *
 * <p>Keys are stored as bytes and only ever bound as parameters; the table name comes from {@link
 * JdbcOptions}, which validates it. Pruning turns old tombstones into floors in place (the row
 * stays, state {@code PRUNED}), so a key's generations keep rising and its revisions never repeat.
 *
 * <p>Thread-safe. {@link #close()} closes nothing of the data source, which stays the
 * application's.
 */
public final class JdbcLeaseRepository implements PrunableLeaseRepository {

  private final DataSource dataSource;
  private final String table;
  private final Dialect dialect;
  private final Sql sql;

  private JdbcLeaseRepository(DataSource dataSource, String table, Dialect dialect) {
    this.dataSource = dataSource;
    this.table = table;
    this.dialect = dialect;
    this.sql = new Sql(table);
  }

  /**
   * Creates the table of {@link JdbcOptions#defaults()} if it does not exist, then opens the
   * repository on it.
   *
   * @param dataSource where to connect
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     table cannot be created or has other columns
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
   *     table cannot be created or has other columns
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
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     table does not exist or lacks a column
   * @throws NullPointerException if {@code dataSource} is null
   */
  public static JdbcLeaseRepository open(DataSource dataSource) {
    return open(dataSource, JdbcOptions.defaults());
  }

  /**
   * Opens the repository on an existing table, after checking that it has the columns of a lease
   * table.
   *
   * @param dataSource where to connect
   * @param options the table
   * @return the repository
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     table does not exist or lacks a column
   * @throws NullPointerException if an argument is null
   */
  public static JdbcLeaseRepository open(DataSource dataSource, JdbcOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    String table = options.tableName();
    try (Connection connection = dataSource.getConnection()) {
      Dialect dialect = dialect(connection, table);
      JdbcLeaseRepository repository = new JdbcLeaseRepository(dataSource, table, dialect);
      repository.checkTable(connection);
      return repository;
    } catch (SQLException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot open the lease table '" + table + "': " + describe(e), e);
    }
  }

  /**
   * Creates the lease table ({@code CREATE TABLE IF NOT EXISTS}); does nothing if it exists. Needs
   * the right to create tables; applications that create their schema otherwise (a migration tool)
   * can take the statement from {@code docs/jdbc.md} and call {@link #open(DataSource,
   * JdbcOptions)}.
   *
   * @param dataSource where to connect
   * @param options the table
   * @throws LeaseRepositoryFailure if the database cannot be reached, is not supported, or the
   *     table cannot be created
   * @throws NullPointerException if an argument is null
   */
  public static void createSchema(DataSource dataSource, JdbcOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    String table = options.tableName();
    try (Connection connection = dataSource.getConnection()) {
      Dialect dialect = dialect(connection, table);
      autoCommit(connection);
      try (Statement statement = connection.createStatement()) {
        statement.execute(dialect.createTable(table));
      }
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

  private void checkTable(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.executeQuery(sql.checkColumns()).close();
    } catch (SQLException e) {
      if (dialect.isUndefinedTable(e)) {
        throw new LeaseRepositoryFailure(
            null,
            "the lease table '"
                + table
                + "' does not exist in this "
                + dialect.name()
                + " database (or is not on the connection's search path); create it with"
                + " JdbcLeaseRepository.create or createSchema",
            e);
      }
      if (dialect.isUndefinedColumn(e)) {
        throw new LeaseRepositoryFailure(
            null,
            "the table '"
                + table
                + "' is not a lease table: it lacks a column ("
                + e.getMessage()
                + "); choose another table name in JdbcOptions",
            e);
      }
      throw e;
    }
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
    try (PreparedStatement update = connection.prepareStatement(sql.update(writes.get(0)))) {
      for (LeaseWrite write : writes) {
        Sql.bindUpdate(update, KeyBytes.encode(write.key()), write);
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
    if (write.expectedRevision() == 0) {
      try (PreparedStatement insert = connection.prepareStatement(dialect.insertIfAbsent(table))) {
        Sql.bindInsert(insert, keyBytes, write);
        return insert.executeUpdate();
      } catch (SQLException e) {
        if (dialect.isDuplicateKey(e)) {
          return 0;
        }
        throw e;
      }
    }
    try (PreparedStatement update = connection.prepareStatement(sql.update(write))) {
      Sql.bindUpdate(update, keyBytes, write);
      return update.executeUpdate();
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

  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    byte[] keyBytes = KeyBytes.encode(LeaseKeys.requireValid(key));
    long lockId = KeyBytes.lockId(table, keyBytes);
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before taking the key lock of '" + key + "'");
    }
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      throw failure(key, "take the key lock of", e);
    }
    try {
      autoCommit(connection);
      return JdbcKeyLock.take(connection, dialect, lockId, key);
    } catch (SQLException e) {
      closeQuietly(connection);
      throw failure(key, "take the key lock of", e);
    } catch (InterruptedException | RuntimeException | Error e) {
      closeQuietly(connection);
      throw e;
    }
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
      autoCommit(connection);
      return work.run(connection);
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
