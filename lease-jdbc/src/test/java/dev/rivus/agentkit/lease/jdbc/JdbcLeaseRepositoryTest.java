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
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the contract does not cover: opening, the table, key locks across sessions; run on each
 * server by a subclass.
 */
abstract class JdbcLeaseRepositoryTest {

  /** The server this test runs on. */
  abstract TestServer server();

  /** A query of one row and one column: the session's settings that bound a key lock's silence. */
  abstract String silenceSettings();

  /** A statement that sets those settings to values of the application's own, not the server's. */
  abstract String applicationSilenceSettings();

  private HikariDataSource pool = new HikariDataSource();
  private final String table = TestServer.freshTableName();

  @BeforeEach
  void connect() {
    pool.close();
    server().requireReachable();
    pool = server().pool();
  }

  @AfterEach
  void dropTable() throws Exception {
    pool.close();
    if (server().isReachable()) {
      server().drop(table);
    }
  }

  @Test
  void openingAMissingTableFailsWithAClearMessage() {
    assertThatThrownBy(
            () -> JdbcLeaseRepository.open(pool, JdbcOptions.builder().tableName(table).build()))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("'" + table + "' does not exist")
        .hasMessageContaining("createIfMissing");
  }

  @Test
  void openingATableOfOtherColumnsFailsWithAClearMessage() throws Exception {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE " + table + " (lease_key " + server().binaryType() + " PRIMARY KEY)");
    }

    assertThatThrownBy(
            () ->
                JdbcLeaseRepository.open(
                    pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build()))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("is not a lease table");
  }

  @Test
  void createIsIdempotentAndADroppedTableIsAStoreLost() throws Exception {
    JdbcOptions options = JdbcOptions.builder().tableName(table).createIfMissing(true).build();
    try (LeaseRepository repository = JdbcLeaseRepository.open(pool, options)) {
      repository.save(Samples.firstWrite("kept", "h"));
      try (LeaseRepository again = JdbcLeaseRepository.open(pool, options)) {
        assertThat(again.load("kept")).isPresent();
      }
      server().drop(table);

      assertThatThrownBy(() -> repository.load("kept"))
          .isInstanceOf(StoreLost.class)
          .hasMessageContaining(table);
    }
  }

  @Test
  void aKeyLockExcludesOtherSessionsUntilClosedAndDiesWithItsSession() throws Exception {
    JdbcOptions options = JdbcOptions.builder().tableName(table).build();
    try (HikariDataSource otherPool = server().pool();
        LeaseRepository one =
            JdbcLeaseRepository.open(
                pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
        LeaseRepository other = JdbcLeaseRepository.open(otherPool, options)) {
      LeaseRepository.KeyLock held = one.lockKey("fenced");
      CompletableFuture<LeaseRepository.KeyLock> waiting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return other.lockKey("fenced");
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              TestThreads.EACH);
      TimeUnit.MILLISECONDS.sleep(300);
      assertThat(waiting).as("a second session's wait while the key lock is held").isNotDone();
      assertThat(held.isHeld()).isTrue();

      server().endSession(((JdbcKeyLock) held).backendPid());

      LeaseRepository.KeyLock next = waiting.get(20, TimeUnit.SECONDS);
      assertThat(held.isHeld()).as("a key lock whose session was ended").isFalse();
      assertThat(next.isHeld()).isTrue();
      held.close();
      next.close();
      next.close();
      assertThat(next.isHeld()).isFalse();
    }
  }

  /**
   * Issue 24: the server ends a key lock's session once its holder has been silent for the limit
   * (plus the margin), and a holder that keeps asking {@code isHeld()} keeps it for longer.
   */
  @Test
  void aKeyLockOutlivesItsSilenceLimitWhileAskedAndIsEndedByTheServerOnceSilent() throws Exception {
    Duration limit = Duration.ofSeconds(1);
    JdbcOptions options = JdbcOptions.builder().tableName(table).build();
    try (HikariDataSource otherPool = server().pool();
        LeaseRepository one =
            JdbcLeaseRepository.open(
                pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
        LeaseRepository other = JdbcLeaseRepository.open(otherPool, options)) {
      LeaseRepository.KeyLock held = one.lockKey("silent", limit);
      CompletableFuture<LeaseRepository.KeyLock> waiting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return other.lockKey("silent");
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              TestThreads.EACH);
      Duration bound = limit.plus(JdbcLeaseRepository.KEY_LOCK_SILENCE_MARGIN);
      long askedUntil = System.nanoTime() + bound.multipliedBy(3).toNanos();
      while (System.nanoTime() - askedUntil < 0) {
        assertThat(held.isHeld()).as("a key lock asked about every 300 ms").isTrue();
        TimeUnit.MILLISECONDS.sleep(300); // the holder's pace, not a synchronization
      }
      assertThat(waiting).as("a second session's wait while the holder asks").isNotDone();

      long silentFrom = System.nanoTime();
      LeaseRepository.KeyLock next = waiting.get(30, TimeUnit.SECONDS);
      double waited = (System.nanoTime() - silentFrom) / 1e9;
      System.out.printf(
          "%s: a key lock of silence limit %s taken by another session %.2f s after its holder"
              + " fell silent%n",
          server().product(), limit, waited);
      assertThat(waited).as("seconds until the silent session was ended").isLessThan(15);
      assertThat(held.isHeld()).as("the key lock whose session the server ended").isFalse();
      held.close();
      next.close();
    }
  }

  /** A key lock's session goes back to its pool with the settings it had before. */
  @Test
  void closingAKeyLockGivesItsSessionItsOwnSettingsBack() throws Exception {
    try (HikariDataSource single = server().pool(1, 10_000);
        LeaseRepository repository =
            JdbcLeaseRepository.open(
                single, JdbcOptions.builder().tableName(table).createIfMissing(true).build())) {
      try (Connection connection = single.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute(applicationSilenceSettings()); // on the pool's one session, kept
      }
      String before = settings(single);

      repository.lockKey("restored", Duration.ofSeconds(7)).close();
      String afterOne = settings(single);
      repository.lockKey("restored").close();

      assertThat(afterOne).as("after a key lock with a limit").isEqualTo(before);
      assertThat(settings(single)).as("after a key lock with the default limit").isEqualTo(before);
    }
  }

  @Test
  void aSilenceLimitMustBePositive() throws Exception {
    try (LeaseRepository repository =
        JdbcLeaseRepository.open(
            pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build())) {
      assertThatThrownBy(() -> repository.lockKey("k", Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("silenceLimit must be positive, was PT0S");
      assertThatThrownBy(() -> repository.lockKey("k", null))
          .isInstanceOf(NullPointerException.class)
          .hasMessage("silenceLimit");
    }
  }

  private String settings(HikariDataSource single) throws Exception {
    try (Connection connection = single.getConnection();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(silenceSettings())) {
      row.next();
      return row.getString(1);
    }
  }
}
