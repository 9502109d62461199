package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file repository under the real lease manager: the adapter fits the port as the manager uses
 * it.
 */
class FileLeaseRepositoryWithManagerTest {

  @TempDir Path directory;

  @Test
  void generationsRiseAcrossReleasesAndRepositoryInstances() throws Exception {
    long token;
    try (LeaseManager first =
        LeaseManager.create(FileLeaseRepository.open(directory), LeaseConfig.defaults())) {
      Lease lease = first.acquire("task:42");
      token = lease.runFenced(fence -> fence.generation());
      lease.close();
      assertThat(token).isEqualTo(lease.generation());
    }

    try (LeaseManager second =
        LeaseManager.create(FileLeaseRepository.open(directory), LeaseConfig.defaults())) {
      Lease lease = second.acquire("task:42");
      assertThat(lease.generation()).isEqualTo(token + 1);
      lease.close();
    }

    LeaseSnapshot tombstone = FileLeaseRepository.open(directory).load("task:42").orElseThrow();
    assertThat(tombstone.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(tombstone.generation()).isEqualTo(token + 1);
  }

  @Test
  void aSecondManagerOnTheSameDirectoryIsRefusedWhileTheFirstHolds() {
    try (LeaseManager holder =
            LeaseManager.create(FileLeaseRepository.open(directory), LeaseConfig.defaults());
        LeaseManager rival =
            LeaseManager.create(FileLeaseRepository.open(directory), LeaseConfig.defaults())) {
      Lease lease = holder.acquire("task:7");

      assertThatThrownBy(() -> rival.acquire("task:7")).isInstanceOf(LeaseHeld.class);
      lease.close();
    }
  }
}
