/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ForcedReleaseTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final HolderIdentity HOLDER =
      new HolderIdentity(new ProcessIdentity("build-7", "boot-1", "pid:[1]", 4121, "t"), "h-1");

  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();
  private final FakePlatform platform = new FakePlatform();

  private LeaseSnapshot hold(String key, long generation) {
    LeaseSnapshot held =
        new LeaseSnapshot(
            key, generation, 7, LeaseState.HELD, HOLDER, java.time.Duration.ofMinutes(1), NOW);
    repository.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, held, 0));
    return held;
  }

  @Test
  void releasesTheGivenGenerationAndKeepsItForTheNextHolder() {
    LeaseSnapshot held = hold("stuck", 12);

    Optional<LeaseSnapshot> tombstone =
        new ForcedRelease(repository, platform.wallClock()).release("stuck", 12);

    assertThat(tombstone).hasValue(held.release(platform.now()).snapshot());
    assertThat(repository.load("stuck").orElseThrow())
        .extracting(LeaseSnapshot::state, LeaseSnapshot::generation, LeaseSnapshot::revision)
        .containsExactly(LeaseState.RELEASED, 12L, 8L);
  }

  @Test
  void refusesAnotherGenerationAndWritesNothing() {
    LeaseSnapshot held = hold("stuck", 12);

    assertThatThrownBy(
            () -> new ForcedRelease(repository, platform.wallClock()).release("stuck", 11))
        .isInstanceOf(CliFailure.class)
        .hasMessage("lease 'stuck' is at generation 12 (held), not 11; nothing released")
        .satisfies(e -> assertThat(((CliFailure) e).exitCode()).isEqualTo(ExitCodes.REFUSED));
    assertThat(repository.load("stuck")).hasValue(held);
  }

  @Test
  void refusesAKeyWithoutARecord() {
    assertThatThrownBy(
            () -> new ForcedRelease(repository, platform.wallClock()).release("never", 1))
        .isInstanceOf(CliFailure.class)
        .hasMessage("lease 'never' has no record; nothing released");
  }

  @Test
  void aGenerationAlreadyReleasedIsLeftAsItIs() {
    LeaseSnapshot held = hold("done", 3);
    repository.save(held.release(NOW));

    assertThat(new ForcedRelease(repository, platform.wallClock()).release("done", 3)).isEmpty();
    assertThat(repository.load("done").orElseThrow().revision()).isEqualTo(held.revision() + 1);
  }

  @Test
  void aRenewalBetweenReadAndWriteIsReadAgainNotOverwritten() {
    hold("busy", 5);
    AtomicBoolean renewed = new AtomicBoolean();
    LeaseRepository renewing =
        new LeaseRepository() {
          @Override
          public Optional<LeaseSnapshot> load(String key) {
            return repository.load(key);
          }

          @Override
          public List<LeaseSnapshot> loadAll() {
            return repository.loadAll();
          }

          @Override
          public void save(LeaseWrite write) {
            if (renewed.compareAndSet(false, true)) { // the holder's heartbeat gets in first
              LeaseSnapshot current = repository.load(write.key()).orElseThrow();
              repository.save(current.renewal(NOW));
            }
            repository.save(write);
          }

          @Override
          public KeyLock lockKey(String key) throws InterruptedException {
            return repository.lockKey(key);
          }
        };

    Optional<LeaseSnapshot> tombstone =
        new ForcedRelease(renewing, platform.wallClock()).release("busy", 5);

    assertThat(tombstone).isPresent();
    assertThat(repository.load("busy").orElseThrow())
        .extracting(LeaseSnapshot::state, LeaseSnapshot::revision)
        .containsExactly(LeaseState.RELEASED, 9L);
  }
}
