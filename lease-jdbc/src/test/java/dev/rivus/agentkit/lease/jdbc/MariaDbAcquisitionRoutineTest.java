/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MariaDB's acquisition procedure ({@code <table>_acq}, in {@code mariadb.sql}): made with the
 * tables, called in one round trip, and done without, by the same statements one by one, wherever
 * it is missing (tables of an earlier version), dropped, someone else's, or not the user's to make
 * or execute. Either way an acquisition waits for a fenced transaction's share lock, and gives up
 * after the bound, writing nothing.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MariaDbAcquisitionRoutineTest {

  private static final TestServer SERVER = TestServer.MARIADB;
  private static final Duration TTL = Duration.ofSeconds(60);

  @Test
  void theProcedureMadeWithTheTablesWritesAnAcquisitionInOneCall() throws Exception {
    try (TestDatabase db = TestDatabase.on(SERVER)) {
      db.create().close();
      MariaDbDialect dialect = opened(db.pool, db.table);
      assertThat(dialect.callsRoutine()).isTrue();
      LeaseWrite first = Samples.firstWrite("routine/first", "h");

      try (Connection connection = db.pool.getConnection()) {
        long calls = sessionStatus(connection, "Com_call_procedure");
        long commits = sessionStatus(connection, "Com_commit");
        assertThat(write(dialect, db, connection, first)).isEqualTo(1);
        assertThat(sessionStatus(connection, "Com_call_procedure")).isEqualTo(calls + 1);
        assertThat(sessionStatus(connection, "Com_commit")).isEqualTo(commits + 1);

        LeaseWrite alsoFirst =
            LeaseSnapshot.firstAcquisition(
                "routine/first", first.snapshot().holder(), TTL, Instant.now().plusSeconds(60));
        assertThat(write(dialect, db, connection, alsoFirst)).as("a duplicate key").isZero();
        assertThat(sessionStatus(connection, "Com_call_procedure")).isEqualTo(calls + 2);
        assertThat(inTransaction(connection)).as("a transaction left open").isFalse();
      }
      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(db.pool, db.options().build())) {
        assertThat(repository.load("routine/first")).contains(first.snapshot());
      }
      assertThat(generationRow(db, "routine/first")).isEqualTo(first.snapshot().generation());
    }
  }

  @Test
  void tablesOfAnEarlierVersionAreWrittenWithoutTheProcedureUntilOpenedWithCreate()
      throws Exception {
    try (TestDatabase db = TestDatabase.on(SERVER)) {
      db.create().close();
      SERVER.run("DROP PROCEDURE " + Schema.acquisitionRoutine(db.table));

      MariaDbDialect dialect = opened(db.pool, db.table);
      assertThat(dialect.callsRoutine()).isFalse();
      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(db.pool, db.options().build())) {
        savesAndRefusesAConflict(db, repository, "routine/earlier");
      }

      db.create().close();
      assertThat(opened(db.pool, db.table).callsRoutine()).as("after createIfMissing").isTrue();
    }
  }

  @Test
  void aProcedureDroppedAfterOpeningIsDoneWithoutFromThen() throws Exception {
    try (TestDatabase db = TestDatabase.on(SERVER)) {
      db.create().close();
      MariaDbDialect dialect = opened(db.pool, db.table);
      SERVER.run("DROP PROCEDURE " + Schema.acquisitionRoutine(db.table));
      LeaseWrite first = Samples.firstWrite("routine/dropped", "h");

      try (Connection connection = db.pool.getConnection()) {
        assertThat(write(dialect, db, connection, first)).isEqualTo(1);
        assertThat(inTransaction(connection)).isFalse();
      }
      assertThat(dialect.callsRoutine()).isFalse();
      assertThat(generationRow(db, "routine/dropped")).isEqualTo(first.snapshot().generation());
    }
  }

  @Test
  void aRoutineOfThatNameThatIsNotOursIsNeverCalled() throws Exception {
    try (TestDatabase db = TestDatabase.on(SERVER)) {
      db.create().close();
      String routine = Schema.acquisitionRoutine(db.table);
      SERVER.run("DROP PROCEDURE " + routine);
      SERVER.run(
          "CREATE PROCEDURE "
              + routine
              + "() COMMENT 'someone else''s' SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'called'");

      assertThat(opened(db.pool, db.table).callsRoutine()).isFalse();
      try (JdbcLeaseRepository repository = db.create()) {
        savesAndRefusesAConflict(db, repository, "routine/theirs");
      }
    }
  }

  @Test
  void aUserWhoMayNeitherCreateNorExecuteRoutinesIsServedWithoutThem() throws Exception {
    try (TestDatabase db = TestDatabase.on(SERVER);
        Account account = Account.withTableRightsOnly();
        HikariDataSource pool = account.pool()) {
      // Opening with createIfMissing makes the tables, not the procedure, and does not fail.
      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(pool, db.options().createIfMissing(true).build())) {
        assertThat(routineExists(db)).isFalse();
        savesAndRefusesAConflict(db, repository, "routine/unprivileged");
      }

      // Made by someone who may: still not this user's to execute.
      db.create().close();
      assertThat(routineExists(db)).isTrue();
      MariaDbDialect dialect = opened(pool, db.table);
      LeaseWrite first = Samples.firstWrite("routine/not-executable", "h");
      try (Connection connection = pool.getConnection()) {
        assertThat(write(dialect, db, connection, first)).isEqualTo(1);
        assertThat(inTransaction(connection)).isFalse();
      }
      assertThat(dialect.callsRoutine()).isFalse();
      assertThat(generationRow(db, "routine/not-executable"))
          .isEqualTo(first.snapshot().generation());
    }
  }

  @ParameterizedTest(name = "with the procedure: {0}")
  @ValueSource(booleans = {true, false})
  void anAcquisitionWaitsForAFencedTransactionThenGivesUpWritingNothing(boolean withRoutine)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(SERVER);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager = LeaseManager.builder(repository).ttl(TTL).build();
        Lease lease = manager.acquire("routine/fenced")) {
      if (!withRoutine) {
        SERVER.run("DROP PROCEDURE " + Schema.acquisitionRoutine(db.table));
      }
      try (JdbcLeaseRepository successorSide =
          JdbcLeaseRepository.open(db.pool, db.options().build())) {
        db.createSideTable();
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<Integer> fenced = db.holdFencedTransaction(repository, lease, finish);
        LeaseSnapshot held = repository.load("routine/fenced").orElseThrow();
        LeaseWrite takeOver = held.acquisition(Samples.holder("successor"), TTL, Instant.now());

        long start = System.nanoTime();
        assertThatThrownBy(() -> successorSide.save(takeOver)).isInstanceOf(RevisionConflict.class);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(waited)
            .as("the wait for the fenced transaction's share lock, bounded")
            .isBetween(
                Duration.ofMillis(Dialect.ACQUISITION_LOCK_WAIT_MILLIS * 8 / 10),
                Duration.ofSeconds(20));
        assertThat(fenced).as("the fenced transaction, still running").isNotDone();
        assertThat(repository.load("routine/fenced")).contains(held);
        assertThat(generationRow(db, "routine/fenced")).isEqualTo(lease.generation());

        finish.countDown();
        assertThat(fenced.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(db.sideRows()).isEqualTo(1);
        assertThat(lease.isHeld()).isTrue();
      }
    }
  }

  /** Saves a first acquisition, refuses a second one of the same key, and leaves the first. */
  private static void savesAndRefusesAConflict(
      TestDatabase db, JdbcLeaseRepository repository, String key) throws SQLException {
    LeaseWrite first = Samples.firstWrite(key, "h");
    repository.save(first);
    LeaseWrite alsoFirst =
        LeaseSnapshot.firstAcquisition(
            key, first.snapshot().holder(), TTL, Instant.now().plusSeconds(60));
    assertThatThrownBy(() -> repository.save(alsoFirst)).isInstanceOf(RevisionConflict.class);
    assertThat(repository.load(key)).contains(first.snapshot());
    assertThat(generationRow(db, key)).isEqualTo(first.snapshot().generation());
  }

  private static MariaDbDialect opened(javax.sql.DataSource pool, String table) {
    return (MariaDbDialect) Opening.checkTables(pool, table);
  }

  private static int write(
      MariaDbDialect dialect, TestDatabase db, Connection connection, LeaseWrite write)
      throws SQLException {
    return dialect.writeAcquisition(
        connection, new Sql(db.table, dialect), write, KeyBytes.encode(write.key()));
  }

  private static long sessionStatus(Connection connection, String name) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = ?")) {
      select.setString(1, name);
      try (ResultSet row = select.executeQuery()) {
        assertThat(row.next()).as("the session status %s", name).isTrue();
        return row.getLong(1);
      }
    }
  }

  private static boolean inTransaction(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT @@in_transaction")) {
      row.next();
      return row.getInt(1) != 0;
    }
  }

  private static boolean routineExists(TestDatabase db) throws SQLException {
    try (Connection connection = db.pool.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT count(*) FROM information_schema.ROUTINES"
                    + " WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_NAME = ?")) {
      select.setString(1, Schema.acquisitionRoutine(db.table));
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1) == 1;
      }
    }
  }

  private static long generationRow(TestDatabase db, String key) throws SQLException {
    try (Connection connection = db.pool.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT generation FROM " + db.table + "_fence WHERE key_hash = ?")) {
      select.setBytes(1, KeyBytes.hash(KeyBytes.encode(key)));
      try (ResultSet row = select.executeQuery()) {
        assertThat(row.next()).as("a generation row of '%s'", key).isTrue();
        return row.getLong(1);
      }
    }
  }

  /**
   * A user of the server with the rights on the database's tables a repository needs, and none on
   * routines; dropped on close.
   */
  private static final class Account implements AutoCloseable {
    private final String user = "lease_u_" + UUID.randomUUID().toString().substring(0, 8);
    private final String password = UUID.randomUUID().toString();

    static Account withTableRightsOnly() throws SQLException {
      Account account = new Account();
      SERVER.run("CREATE USER '" + account.user + "'@'%' IDENTIFIED BY '" + account.password + "'");
      String database;
      try (Connection connection = SERVER.shared().connect();
          Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery("SELECT DATABASE()")) {
        row.next();
        database = row.getString(1);
      }
      SERVER.run(
          "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE ON `"
              + database
              + "`.* TO '"
              + account.user
              + "'@'%'");
      return account;
    }

    HikariDataSource pool() {
      String url = SERVER.url().replaceAll("([?&])(user|password)=[^&]*&?", "$1");
      String separator =
          url.contains("?") ? (url.endsWith("?") || url.endsWith("&") ? "" : "&") : "?";
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(url + separator + "user=" + user + "&password=" + password);
      config.setMaximumPoolSize(4);
      config.setMinimumIdle(1);
      config.setConnectionTimeout(10_000);
      return new HikariDataSource(config);
    }

    @Override
    public void close() throws SQLException {
      SERVER.run("DROP USER IF EXISTS '" + user + "'@'%'");
    }
  }
}
