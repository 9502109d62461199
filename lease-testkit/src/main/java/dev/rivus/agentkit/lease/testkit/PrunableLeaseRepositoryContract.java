package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.platform.FakePlatform;
import java.time.Duration;
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
    LeaseConfig config = LeaseConfig.of(Duration.ofSeconds(10), Duration.ofSeconds(2));
    long released;
    try (LeaseManager leases = LeaseManager.create(prunable, config, new FakePlatform());
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
                      .returns(0L, LeaseSnapshot::revision)
                      .returns(LeaseState.RELEASED, LeaseSnapshot::state));
      try (Lease back = leases.acquire("pruned")) {
        assertThat(back.generation()).as("generation after pruning").isGreaterThan(released);
      }
    }
    assertThatThrownBy(() -> prunable.prune(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
