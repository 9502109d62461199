/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseManagerBuilder;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One party of a fault test, as one process would have it: its own pool, a repository on it and a
 * lease manager on that. The manager's name, and so its threads' names ({@code lease-NAME-…}), is
 * unique. Closing it checks that nothing leaked: the manager's threads end and the pool lends no
 * connection any more (HikariCP's own counts), then closes the pool.
 */
final class FaultParty implements AutoCloseable {

  /** How long threads and connections may take to come back once nothing hangs any more. */
  private static final Duration SETTLE = Duration.ofSeconds(15);

  final String name;
  final HikariDataSource pool;
  final JdbcLeaseRepository repository;
  final LeaseManager manager;
  private final HookedDataSource hooked;

  private FaultParty(
      String name,
      HikariDataSource pool,
      HookedDataSource hooked,
      JdbcLeaseRepository repository,
      LeaseManager manager) {
    this.name = name;
    this.pool = pool;
    this.hooked = hooked;
    this.repository = repository;
    this.manager = manager;
  }

  /**
   * Opens a party on {@code url}: a pool of at most 8 connections (tuned further by {@code pool}),
   * the repository on {@code table} (created if absent), a manager with {@code ttl} and {@code
   * heartbeat}.
   */
  static FaultParty open(
      String role,
      String url,
      String table,
      Duration ttl,
      Duration heartbeat,
      Consumer<HikariConfig> poolSettings) {
    return open(role, url, table, ttl, heartbeat, poolSettings, options -> options);
  }

  /** As above, with the repository's options tuned by {@code repositoryOptions}. */
  static FaultParty open(
      String role,
      String url,
      String table,
      Duration ttl,
      Duration heartbeat,
      Consumer<HikariConfig> poolSettings,
      java.util.function.UnaryOperator<JdbcOptions.Builder> repositoryOptions) {
    return open(role, url, table, ttl, heartbeat, null, poolSettings, repositoryOptions);
  }

  /** As above, with the manager's grace ({@code null}: its default). */
  static FaultParty open(
      String role,
      String url,
      String table,
      Duration ttl,
      Duration heartbeat,
      @Nullable Duration grace,
      Consumer<HikariConfig> poolSettings,
      java.util.function.UnaryOperator<JdbcOptions.Builder> repositoryOptions) {
    String name =
        role
            + "-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(8);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(10_000);
    poolSettings.accept(config);
    HikariDataSource pool = new HikariDataSource(config);
    try {
      HookedDataSource hooked = new HookedDataSource(pool);
      JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(
              hooked,
              repositoryOptions
                  .apply(JdbcOptions.builder().tableName(table).createIfMissing(true))
                  .build());
      LeaseManagerBuilder builder =
          LeaseManager.builder(repository).ttl(ttl).heartbeat(heartbeat).name(name);
      LeaseManager manager = (grace == null ? builder : builder.grace(grace)).build();
      return new FaultParty(name, pool, hooked, repository, manager);
    } catch (RuntimeException | Error e) {
      pool.close();
      throw e;
    }
  }

  /**
   * Runs {@code action} once, on the thread that takes the next connection from the pool, after the
   * pool handed it out (so after HikariCP validated it): the next repository call is then the first
   * to meet what the action did.
   */
  void onNextConnection(Runnable action) {
    onNextConnection(thread -> true, action);
  }

  /**
   * As {@link #onNextConnection(Runnable)}, for the next connection a thread {@code taker} takes.
   */
  void onNextConnection(Predicate<Thread> taker, Runnable action) {
    hooked.next.set(new Hook(taker, action));
  }

  /** HikariCP's counts for this party's pool. */
  HikariPoolMXBean poolCounts() {
    return pool.getHikariPoolMXBean();
  }

  /** The record of {@code key} as this party's repository reads it. */
  LeaseSnapshot record(String key) {
    return repository.load(key).orElseThrow(() -> new AssertionError("no record of " + key));
  }

  /** The manager's threads that are alive. */
  List<Thread> managerThreads() {
    String prefix = "lease-" + name + "-";
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.isAlive() && thread.getName().startsWith(prefix))
        .toList();
  }

  /**
   * Closes the manager (releasing what it holds) and the repository (which gives back the
   * connection that listened for releases while a successor waited), checks that the manager's
   * threads end and that the pool has no connection lent out nor a thread waiting for one, then
   * closes the pool.
   */
  @Override
  public void close() {
    try {
      manager.close();
      repository.close();
      await("the threads of closed manager " + name + " end")
          .atMost(SETTLE)
          .untilAsserted(() -> assertThat(managerThreads()).isEmpty());
      HikariPoolMXBean counts = poolCounts();
      await("pool " + name + " gets every connection back")
          .atMost(SETTLE)
          .untilAsserted(
              () -> {
                assertThat(counts.getActiveConnections()).as("active connections").isZero();
                assertThat(counts.getThreadsAwaitingConnection())
                    .as("threads awaiting a connection")
                    .isZero();
              });
    } finally {
      pool.close();
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private record Hook(Predicate<Thread> taker, Runnable action) {}

  /** The pool, with an action run after the next {@code getConnection()} (see above). */
  private static final class HookedDataSource implements DataSource {
    private final DataSource pool;
    final AtomicReference<@Nullable Hook> next = new AtomicReference<>();

    HookedDataSource(DataSource pool) {
      this.pool = pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
      Connection connection = pool.getConnection();
      Hook hook = next.get();
      if (hook != null
          && hook.taker().test(Thread.currentThread())
          && next.compareAndSet(hook, null)) {
        hook.action().run();
      }
      return connection;
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      throw new SQLFeatureNotSupportedException("the test's pool has its own credentials");
    }

    @Override
    public @Nullable PrintWriter getLogWriter() throws SQLException {
      return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(@Nullable PrintWriter out) throws SQLException {
      pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      return pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
      return pool.isWrapperFor(type);
    }
  }
}
