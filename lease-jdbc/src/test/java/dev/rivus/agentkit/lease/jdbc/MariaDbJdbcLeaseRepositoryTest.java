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

/** {@link JdbcLeaseRepositoryTest} on MariaDB: opening, the table, key locks across sessions. */
class MariaDbJdbcLeaseRepositoryTest {

  private HikariDataSource pool = new HikariDataSource();
  private final String table = PostgresServer.freshTableName();

  @BeforeEach
  void connect() {
    pool.close();
    MariaDbServer.requireReachable();
    pool = MariaDbServer.pool();
  }

  @AfterEach
  void dropTable() throws Exception {
    pool.close();
    if (MariaDbServer.isReachable()) {
      MariaDbServer.drop(table);
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
      statement.execute("CREATE TABLE " + table + " (lease_key VARBINARY(16) PRIMARY KEY)");
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
      MariaDbServer.drop(table);

      assertThatThrownBy(() -> repository.load("kept"))
          .isInstanceOf(StoreLost.class)
          .hasMessageContaining(table);
    }
  }

  @Test
  void aKeyLockExcludesOtherSessionsUntilClosedAndDiesWithItsSession() throws Exception {
    JdbcOptions options = JdbcOptions.defaults().withTableName(table);
    try (HikariDataSource otherPool = MariaDbServer.pool();
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
              });
      TimeUnit.MILLISECONDS.sleep(300);
      assertThat(waiting).as("a second session's wait while the key lock is held").isNotDone();
      assertThat(held.isHeld()).isTrue();

      MariaDbServer.kill(((JdbcKeyLock) held).backendPid());

      LeaseRepository.KeyLock next = waiting.get(20, TimeUnit.SECONDS);
      assertThat(held.isHeld()).as("a key lock whose session was killed").isFalse();
      assertThat(next.isHeld()).isTrue();
      held.close();
      next.close();
      next.close();
      assertThat(next.isHeld()).isFalse();
    }
  }
}
