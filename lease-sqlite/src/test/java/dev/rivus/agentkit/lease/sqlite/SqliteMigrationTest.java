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
import dev.rivus.agentkit.lease.testkit.Samples;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Databases of schema versions 1 and 2, built over raw JDBC from their DDL, are migrated to version
 * 3 on open, once, and their rows read conservatively: with the longest TTL any holder could have
 * promised where it was not recorded. A process of an earlier release still running on the file
 * after the migration fails instead of writing.
 */
class SqliteMigrationTest {

  @TempDir Path dir;

  private Path version1() throws Exception {
    Path file = dir.resolve("leases.db");
    SchemaV1.create(file);
    return file;
  }

  @Test
  void aVersion1DatabaseIsMigratedAndItsRecordsReadWithTheLongestTtl() throws Exception {
    Path file = version1();
    SchemaV1.insert(file, "held", 7, 12, "HELD", "v1-holder");
    SchemaV1.insert(file, "released", 3, 5, "RELEASED", "v1-old");

    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      assertThat(repository.load("held"))
          .hasValue(
              new LeaseSnapshot(
                  "held",
                  7,
                  12,
                  LeaseState.HELD,
                  Samples.holder("v1-holder"),
                  LeaseConfig.MAX_DURATION,
                  Samples.TIME));
      assertThat(repository.load("released").orElseThrow())
          .returns(LeaseState.RELEASED, LeaseSnapshot::state)
          .returns(LeaseConfig.MAX_DURATION, LeaseSnapshot::ttl);
      assertThat(repository.load("never-stored")).as("no floor: version 1 never pruned").isEmpty();
    }
    try (Connection raw = SchemaV1.connect(file);
        Statement statement = raw.createStatement()) {
      assertThat(SqliteRecordsTest.intOf(statement, "PRAGMA user_version")).isEqualTo(3);
      assertThat(
              SqliteRecordsTest.intOf(
                  statement, "SELECT value FROM lease_meta WHERE name = 'schema_version'"))
          .as("the version a release of version 1 reads, and refuses as newer")
          .isEqualTo(3);
      assertThat(
              SqliteRecordsTest.intOf(
                  statement, "SELECT value FROM lease_meta WHERE name = 'revision_floor'"))
          .isZero();
    }
  }

  @Test
  void aMigratedDatabaseOpensAgainWithoutMigratingTwice() throws Exception {
    Path file = version1();
    SchemaV1.insert(file, "held", 7, 12, "HELD", "v1-holder");
    SqliteLeaseRepository.open(file).close();

    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      LeaseSnapshot held = repository.load("held").orElseThrow();
      LeaseWrite takeover = held.acquisition(Samples.holder("v2"), Samples.TTL, Samples.TIME);
      repository.save(takeover);
      assertThat(repository.load("held")).hasValue(takeover.snapshot());
    }
    try (Connection raw = SchemaV1.connect(file);
        Statement statement = raw.createStatement()) {
      assertThat(SqliteRecordsTest.intOf(statement, "SELECT count(*) FROM lease_meta"))
          .as("meta rows: version, two floors, floor time")
          .isEqualTo(4);
    }
  }

  @Test
  void aVersion2DatabaseIsMigratedAndKeepsTheTtlsItRecorded() throws Exception {
    Path file = dir.resolve("leases.db");
    SchemaV2.create(file);
    SchemaV2.insert(file, "recorded", 7, 12, "v2-holder", Samples.TTL.toNanos(), 12);
    SchemaV2.insert(file, "rewritten-by-v1", 3, 5, "v1-holder", Samples.TTL.toNanos(), 4);
    SchemaV1.setMeta(file, "revision_floor", 40);
    SchemaV1.setMeta(file, "generation_floor", 2);

    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      assertThat(repository.load("recorded"))
          .hasValue(
              new LeaseSnapshot(
                  "recorded",
                  7,
                  12,
                  LeaseState.HELD,
                  Samples.holder("v2-holder"),
                  Samples.TTL,
                  Samples.TIME));
      assertThat(repository.load("rewritten-by-v1").orElseThrow().ttl())
          .as("a TTL recorded at another revision than the row's was not its last writer's")
          .isEqualTo(LeaseConfig.MAX_DURATION);
      assertThat(repository.load("pruned").orElseThrow())
          .returns(2L, LeaseSnapshot::generation)
          .returns(40L, LeaseSnapshot::revision);
    }
    try (Connection raw = SchemaV1.connect(file);
        Statement statement = raw.createStatement()) {
      assertThat(SqliteRecordsTest.intOf(statement, "PRAGMA user_version")).isEqualTo(3);
      assertThat(SqliteRecordsTest.intOf(statement, "SELECT count(*) FROM lease_meta"))
          .as("meta rows: version, two floors, floor time")
          .isEqualTo(4);
    }
  }

  @Test
  void processesOfEarlierReleasesStillRunningAfterTheMigrationFailInsteadOfWriting()
      throws Exception {
    Path file = version1();
    SchemaV1.insert(file, "k", 7, 12, "RELEASED", "v1-holder");
    try (Connection oldProcess = SchemaV1.connect(file);
        PreparedStatement oldUpdate = oldProcess.prepareStatement(SchemaV1.UPDATE);
        PreparedStatement oldInsert = oldProcess.prepareStatement(SchemaV1.INSERT);
        PreparedStatement oldPrune =
            oldProcess.prepareStatement("DELETE FROM lease WHERE state = 'RELEASED'")) {
      // The old process opened the file, prepared its statements, and keeps running.
      try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
        LeaseSnapshot before = repository.load("k").orElseThrow();
        Instant later = Samples.TIME.plusSeconds(5);

        assertThatThrownBy(
                () -> SchemaV1.write(oldUpdate, "k", 9, 14, "HELD", "v1-successor", later))
            .as("a takeover by version 1, which would record no TTL")
            .hasMessageContaining("holder_host");
        assertThatThrownBy(
                () -> SchemaV1.write(oldInsert, "new-by-v1", 1, 1, "HELD", "v1-creator", later))
            .as("a new record by version 1")
            .hasMessageContaining("holder_host");
        assertThatThrownBy(oldPrune::executeUpdate)
            .as("a pruning by version 1, which would leave holders without records")
            .hasMessageContaining("lease schema version 3");

        assertThat(repository.load("k")).hasValue(before);
        assertThat(repository.load("new-by-v1")).isEmpty();
      }
    }
  }

  @Test
  void aVersion1FileThatHadPrunedStartsItsRevisionFloorAtTheHighestRevisionLeft() throws Exception {
    Path file = version1();
    SchemaV1.insert(file, "kept", 20, 17, "HELD", "h");
    SchemaV1.insert(file, "other", 3, 4, "RELEASED", "h");
    SchemaV1.setMeta(file, "generation_floor", 9);
    SchemaV1.setMeta(file, "floor_raised_at_seconds", Samples.TIME.getEpochSecond());

    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      LeaseSnapshot floor = repository.load("pruned-by-v1").orElseThrow();

      assertThat(floor)
          .isEqualTo(
              LeaseSnapshot.floor(
                  "pruned-by-v1", 9, 17, Instant.ofEpochSecond(Samples.TIME.getEpochSecond())));
      LeaseWrite back = floor.acquisition(Samples.holder("back"), Samples.TTL, Samples.TIME);
      repository.save(back);
      assertThat(repository.load("pruned-by-v1").orElseThrow())
          .returns(
              Math.max(10L, LeaseSnapshot.firstGeneration(Samples.TIME)), LeaseSnapshot::generation)
          .returns(18L, LeaseSnapshot::revision);
    }
  }

  @Test
  void aVersion1FileThatHadPrunedEveryRecordGetsARevisionFloorOfOne() throws Exception {
    Path file = version1();
    SchemaV1.setMeta(file, "generation_floor", 9);

    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      assertThat(repository.load("pruned-by-v1").orElseThrow())
          .returns(9L, LeaseSnapshot::generation)
          .returns(1L, LeaseSnapshot::revision);
    }
  }

  @Test
  void openersRacingOnAVersion1FileAllOpenItAndItIsMigratedOnce() throws Exception {
    int openers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(openers);
    try {
      for (int round = 0; round < 5; round++) {
        Path file = dir.resolve("round-" + round + ".db");
        SchemaV1.create(file);
        SchemaV1.insert(file, "k", 7, 12, "HELD", "v1-holder");
        CyclicBarrier start = new CyclicBarrier(openers);
        List<Future<String>> opened = new ArrayList<>();
        for (int i = 0; i < openers; i++) {
          opened.add(
              pool.submit(
                  () -> {
                    start.await(10, TimeUnit.SECONDS);
                    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
                      return repository.load("k").orElseThrow().ttl().toString();
                    } catch (RuntimeException e) {
                      return e.toString();
                    }
                  }));
        }
        for (Future<String> result : opened) {
          assertThat(result.get(30, TimeUnit.SECONDS))
              .as("round %d", round)
              .isEqualTo(LeaseConfig.MAX_DURATION.toString());
        }
        try (Connection raw = SchemaV1.connect(file);
            Statement statement = raw.createStatement();
            ResultSet columns =
                statement.executeQuery(
                    "SELECT count(*) FROM sqlite_schema WHERE name = 'lease_holder'")) {
          assertThat(columns.next()).isTrue();
          assertThat(columns.getInt(1)).isEqualTo(1);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
