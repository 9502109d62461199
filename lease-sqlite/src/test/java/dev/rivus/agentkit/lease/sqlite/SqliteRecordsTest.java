/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
  void savedRecordLoadsEqualInEveryFieldIncludingNanosecondsAndTheTtl() {
    LeaseWrite first = Samples.firstWrite("task:42", "handle-1");

    repository.save(first);

    assertThat(repository.load("task:42")).hasValue(first.snapshot());
    assertThat(repository.load("task:42").orElseThrow().ttl()).isEqualTo(Samples.TTL);
  }

  @Test
  void aTtlTooLongForNanosecondsIsStoredAsTheLongestThatFits() {
    LeaseSnapshot first = Samples.first("long", "h");
    LeaseWrite write =
        new LeaseWrite(
            LeaseWrite.Intent.ACQUIRE,
            new LeaseSnapshot(
                "long",
                first.generation(),
                1,
                LeaseState.HELD,
                first.holder(),
                Duration.ofDays(365L * 1000),
                Samples.TIME),
            0);

    repository.save(write);

    assertThat(repository.load("long").orElseThrow().ttl())
        .isEqualTo(Duration.ofNanos(Long.MAX_VALUE))
        .isGreaterThan(LeaseConfig.MAX_DURATION);
  }

  @Test
  void keysThatSqliteJdbcWouldEncodeAlikeKeepTheirOwnRecords() {
    // "a\uD800" becomes "a?" in sqlite-jdbc's UTF-8 text; a TEXT key column would merge the two.
    LeaseWrite lone = Samples.firstWrite("a\uD800", "lone-surrogate");
    LeaseWrite question = Samples.firstWrite("a?", "question-mark");
    LeaseWrite reversed = Samples.firstWrite("\uDC00\uD800", "reversed-pair");

    repository.save(lone);
    repository.save(question);
    repository.save(reversed);

    assertThat(repository.load("a\uD800")).hasValue(lone.snapshot());
    assertThat(repository.load("a?")).hasValue(question.snapshot());
    assertThat(repository.load("\uDC00\uD800")).hasValue(reversed.snapshot());
  }

  @Test
  void loadAllListsEveryRecordWithItsKeyDecodedExactly() {
    LeaseWrite lone = Samples.firstWrite("a\uD800", "lone-surrogate");
    LeaseWrite emoji = Samples.firstWrite("emoji 🚀 key", "emoji");
    LeaseWrite plain = Samples.firstWrite("task:42", "plain");
    LeaseWrite released = plain.snapshot().release(Samples.TIME);
    for (LeaseWrite write : List.of(lone, emoji, plain, released)) {
      repository.save(write);
    }

    assertThat(repository.loadAll())
        .containsExactlyInAnyOrder(lone.snapshot(), emoji.snapshot(), released.snapshot());
  }

  @Test
  void wellFormedKeysAreStoredAsTheirUtf8Bytes() throws Exception {
    repository.save(Samples.firstWrite("caf\u00e9/日本", "h"));

    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + repository.file());
        Statement statement = raw.createStatement();
        ResultSet row = statement.executeQuery("SELECT CAST(lease_key AS TEXT) FROM lease")) {
      assertThat(row.next()).isTrue();
      assertThat(row.getString(1)).isEqualTo("caf\u00e9/日本");
    }
  }

  @Test
  void aTakeoverAndTheNewHoldersReleaseInOneBatchAreBothSaved() {
    repository.save(Samples.firstWrite("k", "holder-a"));
    repository.save(repository.load("k").orElseThrow().release(Samples.TIME));
    LeaseWrite taken =
        repository
            .load("k")
            .orElseThrow()
            .acquisition(Samples.holder("holder-b"), Samples.TTL, Samples.TIME);
    LeaseWrite released = taken.snapshot().release(Samples.TIME);

    List<SaveOutcome> outcomes = repository.saveAll(List.of(taken, released));

    assertThat(outcomes).allMatch(SaveOutcome::isSaved);
    assertThat(repository.load("k")).hasValue(released.snapshot());
  }

  @Test
  void writesThatWouldGiveTheStoredGenerationToAnotherHolderConflict() {
    LeaseSnapshot first = Samples.first("k", "holder-a");
    repository.save(Samples.firstWrite("k", "holder-a"));
    LeaseSnapshot otherHolder =
        new LeaseSnapshot(
            "k",
            first.generation(),
            2,
            LeaseState.HELD,
            Samples.holder("holder-b"),
            Samples.TTL,
            Samples.TIME);
    LeaseSnapshot otherHolderReleased =
        new LeaseSnapshot(
            "k",
            first.generation(),
            2,
            LeaseState.RELEASED,
            Samples.holder("holder-b"),
            Samples.TTL,
            Samples.TIME);

    // A renewal names its holder by its generation, which no other holder of the key ever gets;
    // a renewal only moves the revision and time, so it is not checked against the holder here.
    assertThatThrownBy(
            () ->
                repository.save(new LeaseWrite(LeaseWrite.Intent.RELEASE, otherHolderReleased, 1)))
        .as("a release by another holder")
        .isInstanceOf(RevisionConflict.class);
    assertThatThrownBy(
            () -> repository.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, otherHolder, 1)))
        .as("an acquisition that does not raise the generation")
        .isInstanceOf(RevisionConflict.class);
    assertThat(repository.load("k")).hasValue(first);
  }

  @Test
  void writeThatWouldLowerTheGenerationConflicts() {
    LeaseWrite third =
        new LeaseWrite(
            LeaseWrite.Intent.ACQUIRE,
            new LeaseSnapshot(
                "k", 3, 1, LeaseState.HELD, Samples.holder("a"), Samples.TTL, Samples.TIME),
            0);
    repository.save(third);
    LeaseWrite lower =
        new LeaseWrite(
            LeaseWrite.Intent.ACQUIRE,
            new LeaseSnapshot(
                "k", 2, 2, LeaseState.HELD, Samples.holder("b"), Samples.TTL, Samples.TIME),
            1);

    assertThatThrownBy(() -> repository.save(lower)).isInstanceOf(RevisionConflict.class);
    assertThat(repository.load("k")).hasValue(third.snapshot());
  }

  @Test
  void aBatchIsOneTransactionWithOneCommitWhateverItsSize() {
    List<LeaseWrite> renewals = new ArrayList<>();
    for (int i = 0; i < 3 * Writes.CHUNK + 7; i++) {
      LeaseWrite first = Samples.firstWrite("batch/" + i, "h" + i);
      repository.save(first);
      renewals.add(first.snapshot().renewal(Samples.TIME.plusSeconds(1)));
    }
    long before = repository.commits();

    List<SaveOutcome> outcomes = repository.saveAll(renewals);

    assertThat(repository.commits() - before).as("commits of one batch").isEqualTo(1);
    assertThat(outcomes).allMatch(SaveOutcome::isSaved);
    assertThat(repository.loadAll()).extracting(LeaseSnapshot::revision).containsOnly(2L);
  }

  @Test
  void aBatchMixingIntentsAndKeysWithoutRecordsSavesEachAsIfOneByOne() {
    LeaseWrite held = Samples.firstWrite("held", "a");
    LeaseWrite toRelease = Samples.firstWrite("to-release", "b");
    repository.save(held);
    repository.save(toRelease);
    LeaseWrite created = Samples.firstWrite("created", "c");
    LeaseWrite renewal = held.snapshot().renewal(Samples.TIME.plusSeconds(1));
    LeaseWrite release = toRelease.snapshot().release(Samples.TIME.plusSeconds(1));
    LeaseWrite createdRenewed = created.snapshot().renewal(Samples.TIME.plusSeconds(2));
    LeaseWrite createdAgain = Samples.firstWrite("created", "d");
    LeaseWrite renewalOfNothing = Samples.first("nothing", "e").renewal(Samples.TIME);

    List<SaveOutcome> outcomes =
        repository.saveAll(
            List.of(renewal, created, release, createdRenewed, createdAgain, renewalOfNothing));

    assertThat(outcomes)
        .extracting(SaveOutcome::isSaved)
        .containsExactly(true, true, true, true, false, false);
    assertThat(outcomes.get(4).failure())
        .isInstanceOfSatisfying(
            RevisionConflict.class, c -> assertThat(c.actualRevision()).hasValue(2));
    assertThat(outcomes.get(5).failure())
        .isInstanceOfSatisfying(
            RevisionConflict.class, c -> assertThat(c.actualRevision()).hasValue(0));
    assertThat(repository.load("held")).hasValue(renewal.snapshot());
    assertThat(repository.load("to-release")).hasValue(release.snapshot());
    assertThat(repository.load("created")).hasValue(createdRenewed.snapshot());
    assertThat(repository.load("nothing")).isEmpty();
  }

  @Test
  void reopeningFindsTheRecordsAndTheSchemaVersion() throws Exception {
    LeaseWrite first = Samples.firstWrite("task:42", "handle-1");
    repository.save(first);
    repository.close();

    repository = SqliteLeaseRepository.open(dir.resolve("leases.db"));

    assertThat(repository.load("task:42")).hasValue(first.snapshot());
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + repository.file());
        Statement statement = raw.createStatement()) {
      assertThat(intOf(statement, "PRAGMA application_id")).isEqualTo(0x4C454153);
      assertThat(intOf(statement, "PRAGMA user_version")).isEqualTo(3);
      assertThat(intOf(statement, "SELECT value FROM lease_meta WHERE name = 'schema_version'"))
          .isEqualTo(3);
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
