package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the SQLite repository stores and how, beyond the shared contract. */
class SqliteRecordsTest {

  @TempDir Path dir;
  private SqliteLeaseRepository repository;

  @BeforeEach
  void open() {
    repository = SqliteLeaseRepository.open(dir.resolve("leases.db"));
  }

  @AfterEach
  void close() {
    repository.close();
  }

  @Test
  void savedRecordLoadsEqualInEveryFieldIncludingNanoseconds() {
    LeaseSnapshot first = Records.first("task:42", "handle-1");

    repository.save("task:42", first, 0);

    assertThat(repository.load("task:42")).hasValue(first);
  }

  @Test
  void keysThatSqliteJdbcWouldEncodeAlikeKeepTheirOwnRecords() {
    // "a\uD800" becomes "a?" in sqlite-jdbc's UTF-8 text; a TEXT key column would merge the two.
    LeaseSnapshot lone = Records.first("a\uD800", "lone-surrogate");
    LeaseSnapshot question = Records.first("a?", "question-mark");
    LeaseSnapshot reversed = Records.first("\uDC00\uD800", "reversed-pair");

    repository.save(lone.key(), lone, 0);
    repository.save(question.key(), question, 0);
    repository.save(reversed.key(), reversed, 0);

    assertThat(repository.load("a\uD800")).hasValue(lone);
    assertThat(repository.load("a?")).hasValue(question);
    assertThat(repository.load("\uDC00\uD800")).hasValue(reversed);
  }

  @Test
  void loadAllListsEveryRecordWithItsKeyDecodedExactly() {
    LeaseSnapshot lone = Records.first("a\uD800", "lone-surrogate");
    LeaseSnapshot emoji = Records.first("emoji 🚀 key", "emoji");
    LeaseSnapshot plain = Records.first("task:42", "plain").released(Records.TIME);
    for (LeaseSnapshot snapshot : java.util.List.of(lone, emoji, plain)) {
      repository.save(snapshot.key(), snapshot, 0);
    }

    assertThat(repository.loadAll()).containsExactlyInAnyOrder(lone, emoji, plain);
  }

  @Test
  void wellFormedKeysAreStoredAsTheirUtf8Bytes() throws Exception {
    repository.save("caf\u00e9/日本", Records.first("caf\u00e9/日本", "h"), 0);

    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + repository.file());
        Statement statement = raw.createStatement();
        ResultSet row = statement.executeQuery("SELECT CAST(lease_key AS TEXT) FROM lease")) {
      assertThat(row.next()).isTrue();
      assertThat(row.getString(1)).isEqualTo("caf\u00e9/日本");
    }
  }

  @Test
  void writeThatWouldGiveTheStoredGenerationToAnotherHolderConflicts() {
    LeaseSnapshot first = Records.first("k", "holder-a");
    repository.save("k", first, 0);
    LeaseSnapshot sameGenerationOtherHolder =
        new LeaseSnapshot("k", 1, 2, first.state(), Records.holder("holder-b"), Records.TIME);

    assertThatThrownBy(() -> repository.save("k", sameGenerationOtherHolder, 1))
        .isInstanceOf(RevisionConflict.class);
    assertThat(repository.load("k")).hasValue(first);
  }

  @Test
  void writeThatWouldLowerTheGenerationConflicts() {
    LeaseSnapshot third =
        new LeaseSnapshot(
            "k", 3, 1, dev.rivus.agentkit.lease.LeaseState.HELD, Records.holder("a"), Records.TIME);
    repository.save("k", third, 0);
    LeaseSnapshot lower =
        new LeaseSnapshot(
            "k", 2, 2, dev.rivus.agentkit.lease.LeaseState.HELD, Records.holder("b"), Records.TIME);

    assertThatThrownBy(() -> repository.save("k", lower, 1)).isInstanceOf(RevisionConflict.class);
    assertThat(repository.load("k")).hasValue(third);
  }

  @Test
  void reopeningFindsTheRecordsAndTheSchemaVersion() throws Exception {
    LeaseSnapshot first = Records.first("task:42", "handle-1");
    repository.save("task:42", first, 0);
    repository.close();

    repository = SqliteLeaseRepository.open(dir.resolve("leases.db"));

    assertThat(repository.load("task:42")).hasValue(first);
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + repository.file());
        Statement statement = raw.createStatement()) {
      assertThat(intOf(statement, "PRAGMA application_id")).isEqualTo(0x4C454153);
      assertThat(intOf(statement, "PRAGMA user_version")).isEqualTo(1);
      assertThat(intOf(statement, "SELECT value FROM lease_meta WHERE name = 'schema_version'"))
          .isEqualTo(1);
      try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode")) {
        mode.next();
        assertThat(mode.getString(1)).isEqualTo("wal");
      }
    }
  }

  static int intOf(Statement statement, String sql) throws Exception {
    try (ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getInt(1);
    }
  }
}
