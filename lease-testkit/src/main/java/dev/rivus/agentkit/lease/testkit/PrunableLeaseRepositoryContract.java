/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link PrunableLeaseRepository}: everything {@link LeaseRepositoryContract}
 * checks, plus pruning that keeps generations monotonic. An adapter that prunes extends this class
 * instead of the plain contract; its random walks then prune too.
 */
public abstract class PrunableLeaseRepositoryContract extends LeaseRepositoryContract {

  /** For subclasses. */
  protected PrunableLeaseRepositoryContract() {}

  /**
   * Creates the prunable repository under test; see {@link
   * LeaseRepositoryContract#createRepository()}.
   *
   * @return a fresh, empty repository
   * @throws Exception if it cannot be created
   */
  @Override
  protected abstract PrunableLeaseRepository createRepository() throws Exception;

  /**
   * For a {@link PrunableLeaseRepository}: pruning removes tombstones only, never a held record,
   * and a key that comes back after its tombstone was pruned still gets a higher generation.
   *
   * @throws Exception if the repository fails
   */
  @Test
  public void pruningTombstonesKeepsGenerationsRising() throws Exception {
    PrunableLeaseRepository prunable = (PrunableLeaseRepository) repository();
    long released;
    try (LeaseManager leases =
            new FakePlatform().newManager(prunable, Duration.ofSeconds(10), Duration.ofSeconds(2));
        Lease kept = leases.acquire("kept")) {
      for (int i = 0; i < 3; i++) {
        leases.acquire("pruned").close();
      }
      released = prunable.load("pruned").orElseThrow().generation();
      assertThat(prunable.prune(Duration.ofDays(100_000)))
          .as("tombstones older than 270 years")
          .isZero();
      assertThat(prunable.load("pruned")).as("a young tombstone").isPresent();

      assertThat(prunable.prune(Duration.ZERO)).as("tombstones pruned").isEqualTo(1);

      assertThat(prunable.load("kept").orElseThrow().generation()).isEqualTo(kept.generation());
      assertThat(prunable.loadAll())
          .as("every record after pruning: floors are not listed")
          .extracting(LeaseSnapshot::key)
          .containsExactly("kept");
      prunable
          .load("pruned")
          .ifPresent(
              floor ->
                  assertThat(floor)
                      .as("the floor left by pruning")
                      .returns(LeaseState.PRUNED, LeaseSnapshot::state)
                      .satisfies(f -> assertThat(f.generation()).isGreaterThanOrEqualTo(released)));
      try (Lease back = leases.acquire("pruned")) {
        assertThat(back.generation()).as("generation after pruning").isGreaterThan(released);
      }
    }
    assertThatThrownBy(() -> prunable.prune(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Revisions never repeat for a key, also across pruning: a writer that read a record before it
   * was pruned can never match a record created after the prune, however many times that one was
   * written, and a key with a floor cannot be created as if it had never been stored.
   */
  @Test
  public void aSaveWhoseReadPredatesAPruneNeverMatchesARecordCreatedAfterIt() {
    PrunableLeaseRepository prunable = (PrunableLeaseRepository) repository();
    LeaseWrite first = Samples.firstWrite("pruned", "stale-writer");
    prunable.save(first);
    LeaseWrite release = first.snapshot().release(Samples.TIME.plusSeconds(1));
    prunable.save(release);
    LeaseSnapshot readBeforePrune = prunable.load("pruned").orElseThrow();
    List<LeaseWrite> staleWrites =
        List.of(
            readBeforePrune.acquisition(Samples.holder("stale"), Samples.TTL, Samples.TIME),
            first.snapshot().renewal(Samples.TIME),
            Samples.firstWrite("pruned", "as-if-never-stored"));

    assertThat(prunable.prune(Duration.ZERO)).as("tombstones pruned").isEqualTo(1);
    LeaseSnapshot floor = prunable.load("pruned").orElseThrow();
    assertThat(floor.isFloor()).as("the key loads as a floor").isTrue();
    assertThat(floor.revision())
        .as("the floor's revision")
        .isGreaterThanOrEqualTo(readBeforePrune.revision());
    assertThatThrownBy(() -> prunable.save(Samples.firstWrite("pruned", "as-if-never-stored")))
        .as("a first write expecting no record, over a floor")
        .isInstanceOf(RevisionConflict.class);

    LeaseWrite fresh =
        floor.acquisition(Samples.holder("fresh"), Samples.TTL, Samples.TIME.plusSeconds(2));
    prunable.save(fresh);
    LeaseSnapshot latest = fresh.snapshot();
    List<Long> revisions = new ArrayList<>(List.of(first.snapshot().revision()));
    revisions.add(readBeforePrune.revision());
    revisions.add(latest.revision());
    for (int write = 0; write < 4; write++) {
      for (LeaseWrite stale : staleWrites) {
        assertThatThrownBy(() -> prunable.save(stale))
            .as("a write expecting revision %d after the prune", stale.expectedRevision())
            .isInstanceOf(RevisionConflict.class);
      }
      LeaseWrite renewal = latest.renewal(Samples.TIME.plusSeconds(3 + write));
      prunable.save(renewal);
      latest = renewal.snapshot();
      revisions.add(latest.revision());
    }
    assertThat(prunable.load("pruned")).hasValue(latest);
    assertThat(revisions)
        .as("every revision the key had, in order")
        .isSorted()
        .doesNotHaveDuplicates();
    assertThat(latest.generation()).isGreaterThan(readBeforePrune.generation());
  }
}
