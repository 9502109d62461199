package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pruning removes old tombstones and keeps every key's generations monotonic. */
class SqlitePruneTest {

  @TempDir Path dir;

  private final AtomicReference<Instant> now = new AtomicReference<>(Records.TIME);
  private final InstantSource clock = now::get;

  private SqliteLeaseRepository open() {
    return SqliteLeaseRepository.open(
        dir.resolve("leases.db"), SqliteOptions.builder().clock(clock).build());
  }

  @Test
  void prunedKeyComesBackWithAGenerationAboveEveryOneItHad() {
    try (SqliteLeaseRepository repository = open();
        LeaseManager leases = LeaseManager.create(repository, LeaseConfig.defaults())) {
      long last = 0;
      for (int i = 0; i < 3; i++) {
        try (Lease lease = leases.acquire("task")) {
          last = lease.generation();
        }
      }
      assertThat(last).isEqualTo(3);
      now.set(Instant.now()); // the manager stamps records with the system clock

      assertThat(repository.prune(Duration.ZERO)).as("tombstones pruned").isEqualTo(1);

      assertThat(repository.loadAll()).as("records left").isEmpty();
      LeaseSnapshot floor = repository.load("task").orElseThrow();
      assertThat(floor.revision()).as("floor revision").isZero();
      assertThat(floor.generation()).as("floor generation").isEqualTo(3);
      assertThat(floor.state()).isEqualTo(LeaseState.RELEASED);
      try (Lease back = leases.acquire("task")) {
        assertThat(back.generation()).as("generation after pruning").isEqualTo(4);
      }
    }
  }

  @Test
  void floorSurvivesReopeningAndCoversKeysNeverSeenBefore() {
    try (SqliteLeaseRepository repository = open()) {
      LeaseSnapshot tombstone =
          new LeaseSnapshot("old", 41, 90, LeaseState.RELEASED, Records.holder("h"), Records.TIME);
      repository.save("old", tombstone, 0);
      repository.prune(Duration.ZERO);
    }

    try (SqliteLeaseRepository repository = open();
        LeaseManager leases = LeaseManager.create(repository, LeaseConfig.defaults());
        Lease back = leases.acquire("old");
        Lease fresh = leases.acquire("never-seen")) {
      assertThat(back.generation()).isEqualTo(42);
      assertThat(fresh.generation()).as("a new key starts above the floor too").isEqualTo(42);
    }
  }

  @Test
  void onlyTombstonesOlderThanTheAgeArePrunedAndHeldRecordsNever() {
    try (SqliteLeaseRepository repository = open()) {
      LeaseSnapshot oldHeld = Records.first("old-held", "h");
      LeaseSnapshot oldTombstone = Records.first("old-released", "h").released(Records.TIME);
      LeaseSnapshot youngTombstone =
          Records.first("young-released", "h").released(Records.TIME.plus(Duration.ofHours(2)));
      repository.save(oldHeld.key(), oldHeld, 0);
      repository.save(oldTombstone.key(), oldTombstone, 0);
      repository.save(youngTombstone.key(), youngTombstone, 0);
      now.set(Records.TIME.plus(Duration.ofHours(3)));

      int pruned = repository.prune(Duration.ofHours(2));

      assertThat(pruned).isEqualTo(1);
      assertThat(repository.load("old-released").orElseThrow().revision()).as("pruned").isZero();
      assertThat(repository.load("old-held")).hasValue(oldHeld);
      assertThat(repository.load("young-released")).hasValue(youngTombstone);
    }
  }

  @Test
  void writerWhoseReadPredatesAPruneCannotReuseTheRevisionOfTheKeysNewRecord() {
    try (SqliteLeaseRepository repository = open()) {
      // A writer reads the tombstone at revision 2 and stalls (a GC pause, SIGSTOP).
      LeaseSnapshot first = Records.first("k", "a");
      LeaseSnapshot released = first.released(Records.TIME);
      repository.save("k", first, 0);
      repository.save("k", released, 1);
      LeaseSnapshot staleRead = repository.load("k").orElseThrow();
      // Meanwhile the tombstone is pruned, and B acquires the key (generation 2, revision 1) and
      // renews
      // it (revision 2): the revision the stalled writer expects exists again.
      repository.prune(Duration.ZERO);
      LeaseSnapshot floor = repository.load("k").orElseThrow();
      LeaseSnapshot byB = floor.acquiredBy(Records.holder("b"), Records.TIME);
      repository.save("k", byB, 0);
      LeaseSnapshot renewedByB = byB.renewed(Records.TIME);
      repository.save("k", renewedByB, 1);

      // The stalled writer now acquires from its stale read: generation 2 again, over revision 2.
      LeaseSnapshot stale = staleRead.acquiredBy(Records.holder("c"), Records.TIME);

      assertThatThrownBy(() -> repository.save("k", stale, staleRead.revision()))
          .isInstanceOf(RevisionConflict.class);
      assertThat(repository.load("k")).hasValue(renewedByB);
    }
  }

  @Test
  void creatingARecordAtOrBelowTheFloorConflicts() {
    try (SqliteLeaseRepository repository = open()) {
      LeaseSnapshot tombstone =
          new LeaseSnapshot("k", 5, 9, LeaseState.RELEASED, Records.holder("h"), Records.TIME);
      repository.save("k", tombstone, 0);
      repository.prune(Duration.ZERO);

      // A writer that saw "no record" before the key ever existed would hand out generation 1.
      assertThatThrownBy(() -> repository.save("k", Records.first("k", "late"), 0))
          .isInstanceOf(RevisionConflict.class);
      assertThat(repository.load("k").orElseThrow().generation()).isEqualTo(5);
    }
  }

  @Test
  void negativeOrNullAgeIsRefused() {
    try (SqliteLeaseRepository repository = open()) {
      assertThatThrownBy(() -> repository.prune(Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("PT-1S");
      assertThatThrownBy(() -> repository.prune(null)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
