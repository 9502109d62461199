/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pruning removes old tombstones and keeps every key's generations rising and its revisions
 * unrepeated, beyond what the shared contract checks: floors that survive reopening and cover keys
 * never seen, the age limit, and the generation check that backs up the revision floor.
 */
class SqlitePruneTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  @TempDir Path dir;

  private final AtomicReference<Instant> now = new AtomicReference<>(Samples.TIME);
  private final InstantSource clock = now::get;

  private SqliteLeaseRepository open() {
    return SqliteLeaseRepository.open(
        dir.resolve("leases.db"), SqliteOptions.builder().clock(clock).build());
  }

  @Test
  void prunedKeyLoadsAsAFloorAndComesBackAboveEveryGenerationAndRevisionItHad() {
    FakePlatform platform = new FakePlatform();
    try (SqliteLeaseRepository repository = open();
        LeaseManager leases = platform.newManager(repository, TTL, HEARTBEAT)) {
      for (int i = 0; i < 3; i++) {
        leases.acquire("task").close();
      }
      LeaseSnapshot tombstone = repository.load("task").orElseThrow();
      now.set(platform.now());

      assertThat(repository.prune(Duration.ZERO)).as("tombstones pruned").isEqualTo(1);

      assertThat(repository.loadAll()).as("records left").isEmpty();
      LeaseSnapshot floor = repository.load("task").orElseThrow();
      assertThat(floor.state()).isEqualTo(LeaseState.PRUNED);
      assertThat(floor.generation()).as("floor generation").isEqualTo(tombstone.generation());
      assertThat(floor.revision()).as("floor revision").isEqualTo(tombstone.revision());
      try (Lease back = leases.acquire("task")) {
        assertThat(back.generation()).isEqualTo(tombstone.generation() + 1);
        assertThat(repository.load("task").orElseThrow().revision())
            .isEqualTo(tombstone.revision() + 1);
      }
    }
  }

  @Test
  void floorSurvivesReopeningAndCoversKeysNeverSeenBefore() {
    LeaseWrite first =
        new LeaseWrite(
            LeaseWrite.Intent.ACQUIRE,
            new LeaseSnapshot(
                "old", 41, 90, LeaseState.HELD, Samples.holder("h"), Samples.TTL, Samples.TIME),
            0);
    try (SqliteLeaseRepository repository = open()) {
      repository.save(first);
      repository.save(first.snapshot().release(Samples.TIME));
      repository.prune(Duration.ZERO);
    }

    try (SqliteLeaseRepository repository = open();
        LeaseManager leases = new FakePlatform().newManager(repository, TTL, HEARTBEAT);
        Lease back = leases.acquire("old");
        Lease fresh = leases.acquire("never-seen")) {
      // Above the floor of 41; the fake wall clock's microseconds are higher still.
      assertThat(back.generation()).isGreaterThan(41);
      assertThat(fresh.generation()).as("a new key starts above the floor too").isGreaterThan(41);
      assertThat(repository.load("never-seen").orElseThrow().revision()).isEqualTo(92);
    }
  }

  @Test
  void onlyTombstonesOlderThanTheAgeArePrunedAndHeldRecordsNever() {
    try (SqliteLeaseRepository repository = open()) {
      LeaseWrite oldHeld = Samples.firstWrite("old-held", "h");
      LeaseWrite oldTombstone =
          Samples.first("old-released", "h").release(Samples.TIME.minusSeconds(1));
      LeaseWrite youngTombstone =
          Samples.first("young-released", "h").release(Samples.TIME.plus(Duration.ofHours(2)));
      repository.save(oldHeld);
      repository.save(Samples.firstWrite("old-released", "h"));
      repository.save(oldTombstone);
      repository.save(Samples.firstWrite("young-released", "h"));
      repository.save(youngTombstone);
      now.set(Samples.TIME.plus(Duration.ofHours(3)));

      int pruned = repository.prune(Duration.ofHours(2));

      assertThat(pruned).isEqualTo(1);
      assertThat(repository.load("old-released").orElseThrow().isFloor()).as("pruned").isTrue();
      assertThat(repository.load("old-held")).hasValue(oldHeld.snapshot());
      assertThat(repository.load("young-released")).hasValue(youngTombstone.snapshot());
    }
  }

  @Test
  void creatingARecordAtOrBelowTheGenerationFloorConflictsEvenOverTheFloorsRevision() {
    try (SqliteLeaseRepository repository = open()) {
      LeaseWrite first =
          new LeaseWrite(
              LeaseWrite.Intent.ACQUIRE,
              new LeaseSnapshot(
                  "k", 5, 9, LeaseState.HELD, Samples.holder("h"), Samples.TTL, Samples.TIME),
              0);
      repository.save(first);
      repository.save(first.snapshot().release(Samples.TIME));
      repository.prune(Duration.ZERO);
      LeaseSnapshot floor = repository.load("k").orElseThrow();
      LeaseWrite tooLow =
          new LeaseWrite(
              LeaseWrite.Intent.ACQUIRE,
              new LeaseSnapshot(
                  "k",
                  floor.generation(),
                  floor.revision() + 1,
                  LeaseState.HELD,
                  Samples.holder("late"),
                  Samples.TTL,
                  Samples.TIME),
              floor.revision());

      assertThatThrownBy(() -> repository.save(tooLow))
          .isInstanceOfSatisfying(
              RevisionConflict.class, c -> assertThat(c.actualRevision()).isEmpty());
      assertThat(repository.load("k")).hasValue(floor);
    }
  }

  @Test
  void negativeOrNullAgeIsRefused() {
    try (SqliteLeaseRepository repository = open()) {
      assertThatThrownBy(() -> repository.prune(Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("PT-1S");
      assertThatThrownBy(() -> repository.prune(null))
          .isInstanceOf(NullPointerException.class)
          .hasMessage("olderThan");
    }
  }
}
