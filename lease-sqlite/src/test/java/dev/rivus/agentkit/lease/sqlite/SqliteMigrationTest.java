package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
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
 * Databases of schema version 1, built over raw JDBC from version 1's DDL, are migrated to version
 * 2 on open, once, and their rows read conservatively: with the longest TTL any holder could have
 * promised, also when a process of version 1 still writes to the file after the migration.
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
                  Records.holder("v1-holder"),
                  LeaseConfig.MAX_DURATION,
                  Records.TIME));
      assertThat(repository.load("released").orElseThrow())
          .returns(LeaseState.RELEASED, LeaseSnapshot::state)
          .returns(LeaseConfig.MAX_DURATION, LeaseSnapshot::ttl);
      assertThat(repository.load("never-stored")).as("no floor: version 1 never pruned").isEmpty();
    }
    try (Connection raw = SchemaV1.connect(file);
        Statement statement = raw.createStatement()) {
      assertThat(SqliteRecordsTest.intOf(statement, "PRAGMA user_version")).isEqualTo(2);
      assertThat(
              SqliteRecordsTest.intOf(
                  statement, "SELECT value FROM lease_meta WHERE name = 'schema_version'"))
          .as("the version a release of version 1 reads, and refuses as newer")
          .isEqualTo(2);
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
      LeaseWrite takeover = held.acquisition(Records.holder("v2"), Records.TTL, Records.TIME);
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
  void aVersion1WriterStillRunningAfterTheMigrationLeavesNoTtlThatIsNotItsHolders()
      throws Exception {
    Path file = version1();
    SchemaV1.insert(file, "k", 7, 12, "HELD", "v1-holder");
    try (Connection oldProcess = SchemaV1.connect(file);
        PreparedStatement oldUpdate = oldProcess.prepareStatement(SchemaV1.UPDATE);
        PreparedStatement oldInsert = oldProcess.prepareStatement(SchemaV1.INSERT)) {
      // The old process opened the file, prepared its statements, and keeps running.
      try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
        LeaseWrite takeover =
            repository
                .load("k")
                .orElseThrow()
                .acquisition(Records.holder("v2-holder"), Records.TTL, Records.TIME);
        repository.save(takeover);
        assertThat(repository.load("k").orElseThrow().ttl()).isEqualTo(Records.TTL);

        // The old process takes the key over and creates another, with its statements of version 1.
        Instant later = Records.TIME.plusSeconds(5);
        SchemaV1.write(oldUpdate, "k", 9, 14, "HELD", "v1-successor", later);
        SchemaV1.write(oldInsert, "new-by-v1", 1, 1, "HELD", "v1-creator", later);

        LeaseSnapshot afterOldUpdate = repository.load("k").orElseThrow();
        assertThat(afterOldUpdate.holder()).isEqualTo(Records.holder("v1-successor"));
        assertThat(afterOldUpdate.ttl())
            .as("the TTL left by the holder of version 2 does not pass to the one of version 1")
            .isEqualTo(LeaseConfig.MAX_DURATION);
        assertThat(repository.load("new-by-v1").orElseThrow().ttl())
            .isEqualTo(LeaseConfig.MAX_DURATION);

        LeaseWrite again = afterOldUpdate.acquisition(Records.holder("v2"), Records.TTL, later);
        repository.save(again);
        assertThat(repository.load("k").orElseThrow().ttl())
            .as("a write of version 2 records its TTL again")
            .isEqualTo(Records.TTL);
      }
    }
  }

  @Test
  void aStaleWriterCannotTakeARecordThatAVersion1ProcessRecreatedFromRevision1AfterAPrune()
      throws Exception {
    Path file = version1();
    try (Connection oldProcess = SchemaV1.connect(file);
        PreparedStatement oldUpdate = oldProcess.prepareStatement(SchemaV1.UPDATE);
        PreparedStatement oldInsert = oldProcess.prepareStatement(SchemaV1.INSERT);
        SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      LeaseWrite first = Records.firstWrite("k", "v2-first");
      repository.save(first);
      LeaseWrite release = first.snapshot().release(Records.TIME);
      repository.save(release);
      LeaseSnapshot staleRead = repository.load("k").orElseThrow(); // then the reader stalls
      repository.prune(Duration.ZERO);

      // Version 1 recreates the pruned key above its generation floor, from revision 1, and renews.
      long generation = staleRead.generation() + 1;
      SchemaV1.write(oldInsert, "k", generation, 1, "HELD", "v1-holder", Records.TIME);
      SchemaV1.write(oldUpdate, "k", generation, 2, "HELD", "v1-holder", Records.TIME);

      LeaseWrite stale = staleRead.acquisition(Records.holder("stale"), Records.TTL, Records.TIME);
      assertThat(stale.expectedRevision()).as("the revision the stale writer expects").isEqualTo(2);
      assertThatThrownBy(() -> repository.save(stale))
          .as("an acquisition giving generation %d a second time", generation)
          .isInstanceOf(RevisionConflict.class);
      assertThat(repository.load("k").orElseThrow().holder())
          .isEqualTo(Records.holder("v1-holder"));
    }
  }

  @Test
  void aVersion1FileThatHadPrunedStartsItsRevisionFloorAtTheHighestRevisionLeft() throws Exception {
    Path file = version1();
    SchemaV1.insert(file, "kept", 20, 17, "HELD", "h");
    SchemaV1.insert(file, "other", 3, 4, "RELEASED", "h");
    SchemaV1.setMeta(file, "generation_floor", 9);
    SchemaV1.setMeta(file, "floor_raised_at_seconds", Records.TIME.getEpochSecond());

    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      LeaseSnapshot floor = repository.load("pruned-by-v1").orElseThrow();

      assertThat(floor)
          .isEqualTo(
              LeaseSnapshot.floor(
                  "pruned-by-v1", 9, 17, Instant.ofEpochSecond(Records.TIME.getEpochSecond())));
      LeaseWrite back = floor.acquisition(Records.holder("back"), Records.TTL, Records.TIME);
      repository.save(back);
      assertThat(repository.load("pruned-by-v1").orElseThrow())
          .returns(10L, LeaseSnapshot::generation)
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
                    "SELECT count(*) FROM pragma_table_info('lease') WHERE name = 'ttl_revision'")) {
          assertThat(columns.next()).isTrue();
          assertThat(columns.getInt(1)).isEqualTo(1);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
