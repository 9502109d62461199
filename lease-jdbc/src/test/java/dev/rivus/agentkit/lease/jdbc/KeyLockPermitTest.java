/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every way a key lock ends gives its turn (of {@link JdbcOptions#keyLockLimit()}) back. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KeyLockPermitTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aKeyLockWhoseSessionWasEndedGivesItsTurnBackOnClose(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 4, 5_000);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(1).build())) {
      LeaseRepository.KeyLock lost = repository.lockKey("a");
      server.endSession(((JdbcKeyLock) lost).backendPid());
      Awaitility.await().until(() -> !lost.isHeld());
      lost.close();

      assertThat(lockWithin(repository, "b", 10)).isTrue();
    }
  }

  /**
   * An abandoned key lock (fenced work ended by a loss) gives its turn back, and its connection,
   * aborted on a thread of its own, goes back to the pool as broken: the pool drops it rather than
   * lend the dead session out again (HikariCP lends a connection used within half a second without
   * checking it).
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void anAbandonedKeyLockGivesItsTurnBackAndItsDeadConnectionIsNotLentOutAgain(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 1, 5_000);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(1).build())) {
      repository.lockKey("a").abandon();
      Awaitility.await("the abandoned key lock's connection given back")
          .until(() -> db.pool.getHikariPoolMXBean().getActiveConnections() == 0);

      try (Connection next = db.pool.getConnection();
          Statement statement = next.createStatement()) {
        statement.execute("SELECT 1"); // on the aborted session, this would fail
      }
      assertThat(lockWithin(repository, "a", 10)).isTrue();
    }
  }

  /**
   * A key lock abandoned on a pool that will not abort its connection is unlocked instead, so that
   * its session goes back to the pool without the lock (it would hold the key for good otherwise).
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void anAbandonedKeyLockWhoseConnectionRefusesToAbortIsUnlockedInstead(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 1, 5_000);
        HikariDataSource otherPool = server.pool(1, 5_000);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                refusingToAbort(db.pool),
                db.options().createIfMissing(true).keyLockLimit(1).build());
        JdbcLeaseRepository other = JdbcLeaseRepository.open(otherPool, db.options().build())) {
      repository.lockKey("a").abandon();
      Awaitility.await("the abandoned key lock's connection given back")
          .until(() -> db.pool.getHikariPoolMXBean().getActiveConnections() == 0);

      assertThat(lockWithin(other, "a", 10)).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aKeyLockThatGetsNoConnectionGivesItsTurnBack(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 1, 300);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(1).build())) {
      try (Connection taken = db.pool.getConnection()) {
        assertThatThrownBy(() -> repository.lockKey("a"))
            .isInstanceOf(LeaseRepositoryFailure.class);
      }

      assertThat(lockWithin(repository, "a", 10)).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aKeyLockInterruptedWhileTheKeyIsTakenGivesItsTurnAndConnectionBack(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 4, 5_000);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(1).build());
        JdbcLeaseRepository other = JdbcLeaseRepository.open(db.pool, db.options().build());
        LeaseRepository.KeyLock held = other.lockKey("k")) {
      Thread waiter =
          new Thread(
              () -> {
                try {
                  repository.lockKey("k").close();
                } catch (InterruptedException expected) {
                  Thread.currentThread().interrupt();
                }
              });
      waiter.start();
      Awaitility.await().until(() -> db.pool.getHikariPoolMXBean().getActiveConnections() == 2);
      waiter.interrupt();
      waiter.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(waiter.isAlive()).isFalse();
      Awaitility.await().until(() -> db.pool.getHikariPoolMXBean().getActiveConnections() == 1);

      assertThat(lockWithin(repository, "other key", 10)).isTrue();
    }
  }

  /** The data source, whose connections refuse {@link Connection#abort}. */
  private static DataSource refusingToAbort(DataSource dataSource) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = delegate(dataSource, method, args);
              return method.getName().equals("getConnection")
                  ? refusingToAbort((Connection) result)
                  : result;
            });
  }

  private static Connection refusingToAbort(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("abort")) {
                throw new SQLFeatureNotSupportedException("this pool does not abort");
              }
              return delegate(connection, method, args);
            });
  }

  private static Object delegate(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static boolean lockWithin(JdbcLeaseRepository repository, String key, long seconds)
      throws Exception {
    CompletableFuture<Boolean> next =
        CompletableFuture.supplyAsync(
            () -> {
              try (LeaseRepository.KeyLock lock = repository.lockKey(key)) {
                return lock.isHeld();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
              }
            },
            TestThreads.EACH);
    try {
      return next.get(seconds, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException leaked) {
      next.cancel(true);
      return false;
    }
  }
}
