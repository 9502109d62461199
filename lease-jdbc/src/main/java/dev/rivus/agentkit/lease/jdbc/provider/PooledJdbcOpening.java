/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Opens the lease table of a shared database for one {@code jdbc:} request: a small HikariCP pool
 * on the URL, and a {@link JdbcLeaseRepository} on it that closes the pool when it is closed; key
 * locks have a pool of their own, made on first use. With {@link PooledJdbcRepository}, the only
 * classes of the provider that name a pool class, and they are reached only from {@link
 * JdbcStoreProvider#open}: a caller that opens another store loads none of them (the lease
 * command's test checks).
 */
final class PooledJdbcOpening {

  /**
   * The pool's size: {@code lease run} renews on one connection while its main thread may use
   * another (the re-read before the command, the release), and one is spare; the other commands use
   * one. The key lock is not among them: it has {@link #KEY_LOCK_POOL_SIZE} of its own, so that a
   * key lock held or waited for never takes a connection the renewals need (a wait for a key lock
   * once failed with "Connection is not available (total=2, active=2)": the pool could not make
   * another connection within the 250 ms it was given). On PostgreSQL, {@code lease run --wait}
   * also listens for the holder's release on one connection while it waits, and for a while after.
   */
  static final int POOL_SIZE = 4;

  /**
   * Connections made before they are needed by a command that holds a lease: the renewal's and the
   * main thread's, so that neither waits for a connection to be made, which can take longer than a
   * short TTL's wait on a loaded machine.
   */
  static final int HOLDING_MINIMUM_IDLE = 2;

  /**
   * The key locks' pool: {@code lease run} holds one key lock, and a second connection may be
   * needed while the first is aborted after a loss.
   */
  static final int KEY_LOCK_POOL_SIZE = 2;

  /**
   * How long a key lock waits for its connection: as long as {@link JdbcOptions#networkTimeout()}
   * lets any call wait; a wait for a held key lock is bounded apart, by {@code lease run}'s
   * patience, which interrupts it and exits with the held code.
   */
  static final Duration KEY_LOCK_CONNECTION_WAIT = JdbcOptions.DEFAULT_NETWORK_TIMEOUT;

  /** How long one call waits for a connection when the request does not say. */
  static final Duration DEFAULT_CONNECTION_WAIT = Duration.ofSeconds(5);

  /** HikariCP's shortest wait for a connection; it raises anything shorter to 30 s. */
  private static final Duration SHORTEST_CONNECTION_WAIT = Duration.ofMillis(250);

  private PooledJdbcOpening() {}

  /**
   * Connects and opens the lease table, creating it first if the request allows: it may create the
   * store, and its setting {@value JdbcTarget#CREATE_TABLE} is not {@code false}.
   *
   * @param request the URL, the settings, whether the table may be created, and how long one call
   *     waits for a connection
   * @return the repository; closing it closes the pool
   * @throws LeaseConfigInvalid for a URL of another database, or a table name the repository
   *     refuses
   * @throws LeaseRepositoryFailure if the database cannot be reached, or the table cannot be
   *     created or opened; the message names the database by its redacted URL
   */
  static LeaseRepository open(StoreRequest request) {
    JdbcTarget target = JdbcTarget.of(request);
    JdbcOptions.Builder table = options(target, request);
    boolean create = request.create() && target.createTable();
    // The key locks' repository opens the tables this one opened or made: it never creates them.
    JdbcOptions keyLockOptions = table.build();
    JdbcOptions options = table.createIfMissing(create).build();
    HikariDataSource pool =
        pool(
            target,
            "lease",
            POOL_SIZE,
            request.holding() ? HOLDING_MINIMUM_IDLE : 1,
            connectionWait(request.busyWait().orElse(DEFAULT_CONNECTION_WAIT)));
    try {
      JdbcLeaseRepository repository = JdbcLeaseRepository.open(pool, options);
      return new PooledJdbcRepository(
          repository, pool, target.where(), () -> openKeyLocks(target, keyLockOptions));
    } catch (LeaseRepositoryFailure e) {
      boolean missing = !create && tableMissing(pool, options.tableName());
      pool.close();
      throw explained(e, target, options.tableName(), missing, request);
    } catch (RuntimeException | Error e) {
      pool.close();
      throw e;
    }
  }

  private static JdbcOptions.Builder options(JdbcTarget target, StoreRequest request) {
    String table = target.table();
    if (table == null) {
      return JdbcOptions.builder();
    }
    try {
      return JdbcOptions.builder().tableName(table);
    } catch (IllegalArgumentException e) {
      throw new LeaseConfigInvalid(
          JdbcTarget.TABLE,
          request.spelling(JdbcTarget.TABLE, JdbcTarget.TABLE) + ": " + e.getMessage());
    }
  }

  /**
   * The key locks' pool and a repository on it, on the table the command opened; made when the
   * first key lock is taken.
   */
  private static PooledJdbcRepository.KeyLocks openKeyLocks(
      JdbcTarget target, JdbcOptions options) {
    HikariDataSource pool =
        pool(target, "lease-key-lock", KEY_LOCK_POOL_SIZE, 1, KEY_LOCK_CONNECTION_WAIT);
    try {
      return new PooledJdbcRepository.KeyLocks(JdbcLeaseRepository.open(pool, options), pool);
    } catch (LeaseRepositoryFailure e) {
      pool.close();
      throw new LeaseRepositoryFailure(
          null, oneLine(e.getMessage()) + " (" + target.where() + ")", e);
    } catch (RuntimeException | Error e) {
      pool.close();
      throw e;
    }
  }

  /** How long one call waits for a connection: the busy wait, at least HikariCP's shortest. */
  private static Duration connectionWait(Duration busyWait) {
    return busyWait.compareTo(SHORTEST_CONNECTION_WAIT) < 0 ? SHORTEST_CONNECTION_WAIT : busyWait;
  }

  private static HikariDataSource pool(
      JdbcTarget target, String name, int size, int minimumIdle, Duration connectionWait) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(target.url().forDriver());
    String user = target.user();
    if (user != null) {
      config.setUsername(user);
    }
    String password = target.password();
    if (password != null) {
      config.setPassword(password);
    }
    config.setMaximumPoolSize(size);
    // One connection is made at once, to fail fast on a wrong URL; the others in the background
    // up to minimumIdle, and beyond it only when needed.
    config.setMinimumIdle(minimumIdle);
    config.setConnectionTimeout(connectionWait.toMillis());
    // Daemon threads (HikariCP's default too, stated here): the pool never keeps the JVM alive.
    config.setThreadFactory(PooledJdbcOpening::daemonThread);
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot connect to the " + target.where() + ": " + driverMessage(e), e);
    }
  }

  private static Thread daemonThread(Runnable task) {
    Thread thread = new Thread(task, "lease-jdbc-pool");
    thread.setDaemon(true);
    return thread;
  }

  /**
   * The repository's failure, for the caller: it names the database, and a missing table is told in
   * the caller's words for the settings that decide about it.
   */
  private static LeaseRepositoryFailure explained(
      LeaseRepositoryFailure failure,
      JdbcTarget target,
      String table,
      boolean tableMissing,
      StoreRequest request) {
    if (tableMissing) {
      String creators = request.spelling(StoreRequest.CREATORS, "");
      return new LeaseRepositoryFailure(
          null,
          "no lease table '"
              + table
              + "' in the "
              + target.where()
              + (request.create()
                  ? "; with "
                      + request.spelling(JdbcTarget.CREATE_TABLE, "create-table=false")
                      + " the schema is the migrations' to create (with the DDL that docs/jdbc.md"
                      + " names), or leave the option out and lease creates it"
                  : "; "
                      + request.spelling(StoreRequest.CALLER, "this request")
                      + " only reads an existing table"
                      + (creators.isEmpty() ? "" : " (" + creators + " create it)")
                      + "; check "
                      + request.spelling(JdbcTarget.TABLE, "the table")
                      + " and the URL's database"),
          failure);
    }
    return new LeaseRepositoryFailure(
        null, oneLine(failure.getMessage()) + " (" + target.where() + ")", failure);
  }

  /**
   * Whether the lease table is missing from the connection's schema, asked after opening failed;
   * {@code false} if that cannot be told, so that the repository's own message stands.
   */
  private static boolean tableMissing(HikariDataSource pool, String table) {
    try (Connection connection = pool.getConnection()) {
      DatabaseMetaData metadata = connection.getMetaData();
      String escape = metadata.getSearchStringEscape();
      // An underscore is a wildcard in a name pattern.
      String pattern =
          escape == null || escape.isEmpty() ? table : table.replace("_", escape + "_");
      try (ResultSet tables =
          metadata.getTables(connection.getCatalog(), connection.getSchema(), pattern, null)) {
        return !tables.next();
      }
    } catch (SQLException | RuntimeException unknown) {
      return false;
    }
  }

  /** The driver's own words: the first SQLException's message, not the pool's wrapping. */
  private static String driverMessage(RuntimeException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException) {
        String message = oneLine(cause.getMessage());
        // DriverManager's words when the driver refused to parse the URL.
        return message.equals("No suitable driver")
            ? "the driver does not accept the URL (check its host, port and parameters)"
            : message;
      }
    }
    return oneLine(e.getMessage());
  }

  /** A message on one line: drivers' messages may span several. */
  static String oneLine(@Nullable String message) {
    if (message == null || message.isBlank()) {
      return "failed";
    }
    return message.strip().replaceAll("\\s*\\R\\s*", "; ");
  }
}
