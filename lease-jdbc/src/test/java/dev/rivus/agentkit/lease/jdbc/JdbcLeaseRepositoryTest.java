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
import java.sql.Statement;
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
            () -> JdbcLeaseRepository.open(pool, JdbcOptions.defaults().withTableName(table)))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("'" + table + "' does not exist")
        .hasMessageContaining("createSchema");
  }

  @Test
  void openingATableOfOtherColumnsFailsWithAClearMessage() throws Exception {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE " + table + " (lease_key " + server().binaryType() + " PRIMARY KEY)");
    }

    assertThatThrownBy(
            () -> JdbcLeaseRepository.create(pool, JdbcOptions.defaults().withTableName(table)))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("is not a lease table");
  }

  @Test
  void createIsIdempotentAndADroppedTableIsAStoreLost() throws Exception {
    JdbcOptions options = JdbcOptions.defaults().withTableName(table);
    try (LeaseRepository repository = JdbcLeaseRepository.create(pool, options)) {
      repository.save(Samples.firstWrite("kept", "h"));
      try (LeaseRepository again = JdbcLeaseRepository.create(pool, options)) {
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
    JdbcOptions options = JdbcOptions.defaults().withTableName(table);
    try (HikariDataSource otherPool = server().pool();
        LeaseRepository one = JdbcLeaseRepository.create(pool, options);
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
}
