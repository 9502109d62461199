/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An acquisition that loses its race writes nothing: neither the record nor the generation row,
 * whose generation the holder's fenced transactions are checked against. On PostgreSQL the
 * acquisition is one statement in auto-commit, which must undo its own generation row when the
 * record's write matches no row; on MariaDB a transaction rolled back.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AcquisitionConflictTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void anAcquisitionOfAnOutdatedRevisionRaisesNoGenerationRow(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create()) {
      LeaseWrite first = Samples.firstWrite("conflict/outdated", "h");
      repository.save(first);
      LeaseWrite release = first.snapshot().release(Instant.now());
      repository.save(release);
      LeaseSnapshot stored = repository.load("conflict/outdated").orElseThrow();

      // Judged from the record before its release: the revision it expects is gone.
      LeaseWrite outdated = first.snapshot().acquisition(first.snapshot().holder(), ttl(), now());
      assertThatThrownBy(() -> repository.save(outdated)).isInstanceOf(RevisionConflict.class);

      assertThat(repository.load("conflict/outdated")).contains(stored);
      assertThat(generationRowOf(db, "conflict/outdated"))
          .as("the generation row, still at the first holder's generation")
          .isEqualTo(first.snapshot().generation());
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aFirstAcquisitionOfAKeyThatHasARecordRaisesNoGenerationRow(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create()) {
      LeaseWrite first = Samples.firstWrite("conflict/first", "h");
      repository.save(first);

      LeaseWrite alsoFirst =
          LeaseSnapshot.firstAcquisition(
              "conflict/first", first.snapshot().holder(), ttl(), now().plusSeconds(3600));
      assertThatThrownBy(() -> repository.save(alsoFirst)).isInstanceOf(RevisionConflict.class);

      assertThat(repository.load("conflict/first")).contains(first.snapshot());
      assertThat(generationRowOf(db, "conflict/first"))
          .as("the generation row, at the first writer's generation, not the loser's higher one")
          .isEqualTo(first.snapshot().generation());
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aWinningAcquisitionRaisesTheGenerationRowWithTheRecord(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create()) {
      LeaseWrite first = Samples.firstWrite("conflict/won", "h");
      repository.save(first);
      LeaseWrite release = first.snapshot().release(Instant.now());
      repository.save(release);
      LeaseWrite next = release.snapshot().acquisition(first.snapshot().holder(), ttl(), now());

      repository.save(next);

      assertThat(repository.load("conflict/won")).contains(next.snapshot());
      assertThat(generationRowOf(db, "conflict/won")).isEqualTo(next.snapshot().generation());
    }
  }

  /** The PostgreSQL dialect keeps its table's acquisition statements: never another table's. */
  @Test
  void oneDialectWritesEachTablesAcquisitionsToThatTable() throws Exception {
    try (TestDatabase one = TestDatabase.on(TestServer.POSTGRES);
        TestDatabase other = TestDatabase.on(TestServer.POSTGRES)) {
      one.create().close();
      other.create().close();
      PostgresDialect dialect = new PostgresDialect();
      LeaseWrite first = Samples.firstWrite("conflict/tables", "h");
      byte[] keyBytes = KeyBytes.encode(first.key());
      try (Connection connection = one.pool.getConnection()) {
        assertThat(dialect.writeAcquisition(connection, sql(one, dialect), first, keyBytes))
            .isOne();
        assertThat(dialect.writeAcquisition(connection, sql(other, dialect), first, keyBytes))
            .as("the same first acquisition, in the other table")
            .isOne();
        assertThat(dialect.writeAcquisition(connection, sql(one, dialect), first, keyBytes))
            .as("again in the first table")
            .isZero();
        // The records are at the first write's revision, so the next acquisition expects it.
        LeaseWrite raise = first.snapshot().acquisition(first.snapshot().holder(), ttl(), now());
        assertThat(dialect.writeAcquisition(connection, sql(other, dialect), raise, keyBytes))
            .isOne();
        assertThat(generationRowOf(other, "conflict/tables"))
            .isEqualTo(raise.snapshot().generation());
        assertThat(generationRowOf(one, "conflict/tables"))
            .isEqualTo(first.snapshot().generation());
      }
    }
  }

  private static Sql sql(TestDatabase db, Dialect dialect) {
    return new Sql(db.table, dialect);
  }

  private static Duration ttl() {
    return Duration.ofSeconds(5);
  }

  private static Instant now() {
    return Instant.now();
  }

  private static long generationRowOf(TestDatabase db, String key) throws SQLException {
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
}
