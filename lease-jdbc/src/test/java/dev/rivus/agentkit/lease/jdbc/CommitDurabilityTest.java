/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Which writes wait for the flush. Acquisitions, so that a generation never goes back after a crash
 * of the database; renewals too, because the database can crash while their holder lives on: a
 * holder counts its lease from the start of its last confirmed renewal, an observer that never saw
 * that revision counts from an older one, so a renewal lost after it was confirmed would let a
 * successor in while the holder still counts on the lease ({@code LostRenewalTest} in
 * lease-core-tests shows it). Releases alone may skip it on PostgreSQL: their holder has stopped.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class CommitDurabilityTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void noAcquisitionTurnsTheFlushOff(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      List<String> statements = new CopyOnWriteArrayList<>();
      DataSource recording = recording(db.pool, statements);
      try (JdbcLeaseRepository repository =
              JdbcLeaseRepository.open(recording, db.options().createIfMissing(true).build());
          LeaseManager manager =
              LeaseManager.builder(repository)
                  .ttl(Duration.ofSeconds(10))
                  .heartbeat(Duration.ofMillis(100))
                  .build()) {
        Lease lease = manager.acquire("durability");
        Awaitility.await().until(() -> writesKeepingTheGeneration(statements) >= 2);
        lease.close();
      }

      // On MariaDB, the call of the acquisition procedure, whose statements the server runs.
      List<String> acquisitions =
          statements.stream()
              .filter(
                  sql ->
                      sql.contains(db.table + "_fence (")
                          || sql.startsWith("CALL " + Schema.acquisitionRoutine(db.table) + "("))
              .toList();
      assertThat(acquisitions).isNotEmpty();
      assertThat(acquisitions).noneMatch(CommitDurabilityTest::turnsTheFlushOff);
    }
  }

  @Test
  void onlyABatchOfReleasesAloneMaySkipTheFlush() {
    LeaseWrite acquisition = Samples.firstWrite("k", "h");
    LeaseWrite renewal = acquisition.snapshot().renewal(Instant.now());
    LeaseWrite release = renewal.snapshot().release(Instant.now());
    LeaseWrite otherRelease = Samples.firstWrite("other", "h").snapshot().release(Instant.now());

    assertThat(Records.mayBeLost(List.of(release))).isTrue();
    assertThat(Records.mayBeLost(List.of(release, otherRelease))).isTrue();
    assertThat(Records.mayBeLost(List.of(renewal))).isFalse();
    assertThat(Records.mayBeLost(List.of(release, renewal))).isFalse();
    assertThat(Records.mayBeLost(List.of(acquisition))).isFalse();
    assertThat(Records.mayBeLost(List.of())).isFalse();
  }

  /**
   * Durability is the repository's promise, not the application's setting: a session (or a server)
   * with {@code synchronous_commit = off}, a common tuning, must not make an acquisition, whose
   * generation must never go back, or a renewal, which its holder counts on, commit without the
   * flush.
   */
  @Test
  void writesCommitDurablyOnASessionWhoseSynchronousCommitIsOff() throws Exception {
    TestServer server = TestServer.POSTGRES;
    try (TestDatabase db =
        TestDatabase.on(
            server,
            config -> config.addDataSourceProperty("options", "-c synchronous_commit=off"))) {
      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(db.pool, db.options().createIfMissing(true).build())) {
        Sql sql = new Sql(db.table, new PostgresDialect());
        LeaseWrite acquisition = Samples.firstWrite("durable", "h");
        assertThat(settingAtCommit(db, sql, acquisition))
            .as("synchronous_commit at a first acquisition's commit")
            .isEqualTo("on");
        repository.save(acquisition);
        LeaseWrite released = acquisition.snapshot().release(Instant.now());
        LeaseWrite again =
            released
                .snapshot()
                .acquisition(acquisition.snapshot().holder(), Duration.ofSeconds(5), Instant.now());
        repository.save(released);
        assertThat(settingAtCommit(db, sql, again))
            .as("synchronous_commit at the commit of an acquisition after a release")
            .isEqualTo("on");
        acquisition = again;
        repository.save(again);

        LeaseWrite renewal = acquisition.snapshot().renewal(Instant.now());
        try (Connection connection = db.pool.getConnection()) {
          assertThat(setting(connection)).as("the application's session").isEqualTo("off");
          connection.setAutoCommit(false);
          try (PreparedStatement update =
              connection.prepareStatement(
                  new Sql(db.table, new PostgresDialect()).updateSameGeneration())) {
            new Sql(db.table, new PostgresDialect())
                .bindSameGeneration(update, KeyBytes.encode("durable"), renewal, false, false);
            assertThat(update.executeUpdate()).isEqualTo(1);
          }
          assertThat(setting(connection))
              .as("synchronous_commit at the renewal's commit")
              .isNotEqualTo("off");
          connection.rollback();

          LeaseWrite release = acquisition.snapshot().release(Instant.now());
          connection.setAutoCommit(true);
          try (com.zaxxer.hikari.HikariDataSource other = db.server.pool(2, 10_000);
              Connection durable = other.getConnection()) {
            durable.setAutoCommit(false);
            try (PreparedStatement update =
                durable.prepareStatement(
                    new Sql(db.table, new PostgresDialect()).updateSameGeneration())) {
              new Sql(db.table, new PostgresDialect())
                  .bindSameGeneration(update, KeyBytes.encode("durable"), release, true, false);
              assertThat(update.executeUpdate()).isEqualTo(1);
            }
            assertThat(setting(durable))
                .as("synchronous_commit at a lone release's commit, on a durable session")
                .isEqualTo("off");
            durable.rollback();
          }
          connection.setAutoCommit(false);
          connection.setAutoCommit(true);
        }
      }
    }
  }

  /**
   * {@code synchronous_commit} at the commit of an acquisition's statement, which commits in
   * auto-commit: run in a transaction of the test's instead, its setting is read before the commit,
   * and then rolled back.
   */
  /**
   * The multi-row writes keep the promise: on a session whose {@code synchronous_commit} is off, a
   * batch of acquisitions and a batch of renewals commit with it on; a batch of releases alone may
   * commit with it off.
   */
  @Test
  void batchWritesCommitDurablyOnASessionWhoseSynchronousCommitIsOff() throws Exception {
    try (TestDatabase db =
        TestDatabase.on(
            TestServer.POSTGRES,
            config -> config.addDataSourceProperty("options", "-c synchronous_commit=off"))) {
      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(db.pool, db.options().createIfMissing(true).build())) {
        PostgresDialect dialect = new PostgresDialect();
        PostgresBatches batches =
            new PostgresBatches(
                new Sql(db.table, dialect),
                dialect.commitMode(),
                dialect.durableCommit(),
                ReleaseNotices.channel(db.table));
        List<LeaseWrite> firsts =
            List.of(Samples.firstWrite("durable/a", "h"), Samples.firstWrite("durable/b", "h"));
        try (Connection connection = db.pool.getConnection()) {
          connection.setAutoCommit(false);
          try {
            assertThat(batches.writeAcquisitionsInTransaction(connection, firsts))
                .containsOnly(PostgresBatches.Acquired.WRITTEN);
            assertThat(setting(connection))
                .as("synchronous_commit at a batch of acquisitions' commit")
                .isEqualTo("on");
          } finally {
            connection.rollback();
          }
        }
        assertThat(repository.saveAll(firsts)).allMatch(SaveOutcome::isSaved);
        List<LeaseWrite> renewals = new ArrayList<>();
        List<LeaseWrite> releases = new ArrayList<>();
        for (LeaseWrite first : firsts) {
          renewals.add(first.snapshot().renewal(Instant.now()));
          releases.add(first.snapshot().release(Instant.now()));
        }
        assertThat(settingAfter(db, batches, renewals, false))
            .as("synchronous_commit at a batch of renewals' commit")
            .isEqualTo("on");
        assertThat(settingAfter(db, batches, releases, true))
            .as("synchronous_commit at a batch of releases' commit")
            .isEqualTo("off");
      }
    }
  }

  private static String settingAfter(
      TestDatabase db, PostgresBatches batches, List<LeaseWrite> writes, boolean lighter)
      throws SQLException {
    try (Connection connection = db.pool.getConnection()) {
      connection.setAutoCommit(false);
      try {
        assertThat(batches.writeSameGeneration(connection, writes, lighter)).containsOnly(true);
        return setting(connection);
      } finally {
        connection.rollback();
        connection.setAutoCommit(true);
      }
    }
  }

  private static String settingAtCommit(TestDatabase db, Sql sql, LeaseWrite acquisition)
      throws SQLException {
    try (Connection connection = db.pool.getConnection()) {
      connection.setAutoCommit(false);
      try {
        byte[] key = KeyBytes.encode(acquisition.key());
        assertThat(new PostgresDialect().writeAcquisition(connection, sql, acquisition, key))
            .isEqualTo(1);
        return setting(connection);
      } finally {
        connection.rollback();
        connection.setAutoCommit(true);
      }
    }
  }

  private static String setting(Connection connection) throws SQLException {
    try (Statement show = connection.createStatement();
        ResultSet row = show.executeQuery("SELECT current_setting('synchronous_commit')")) {
      row.next();
      return row.getString(1);
    }
  }

  private static boolean turnsTheFlushOff(String sql) {
    return sql.replace(" ", "").contains("set_config('synchronous_commit','off'");
  }

  private static long writesKeepingTheGeneration(List<String> statements) {
    // One row per statement, or many (the multi-row renewals of a heartbeat).
    return statements.stream()
        .filter(
            sql -> sql.contains("AND generation = ?") || sql.contains("generation = v.generation"))
        .count();
  }

  /** A data source whose connections record the SQL of every statement they prepare. */
  private static DataSource recording(DataSource target, List<String> statements) {
    InvocationHandler dataSource =
        (proxy, method, args) -> {
          Object result = invoke(target, method, args);
          if (result instanceof Connection connection) {
            return Proxy.newProxyInstance(
                CommitDurabilityTest.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (p, m, a) -> {
                  if (m.getName().equals("prepareStatement")) {
                    statements.add((String) a[0]);
                  }
                  return invoke(connection, m, a);
                });
          }
          return result;
        };
    return (DataSource)
        Proxy.newProxyInstance(
            CommitDurabilityTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            dataSource);
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
