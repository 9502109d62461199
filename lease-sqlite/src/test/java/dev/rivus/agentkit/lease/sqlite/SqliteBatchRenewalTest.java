/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One manager holding 10,000 leases renews them all in a bounded number of SQLite transactions per
 * heartbeat, counted as real commits, however many leases it holds.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqliteBatchRenewalTest {

  private static final int LEASES = 10_000;
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  @TempDir Path fallback;
  private Path dir;

  /**
   * In memory where the system has a tmpfs: each of the 10,000 acquisitions is synced, which costs
   * nothing there and milliseconds on a disk; the count of transactions is the same.
   */
  @BeforeEach
  void chooseDirectory() throws IOException {
    Path shm = Path.of("/dev/shm");
    dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "lease-batch-")
            : fallback;
  }

  @AfterEach
  void deleteDirectory() throws IOException {
    if (!dir.equals(fallback)) {
      StoreFiles.deleteAll(dir.resolve("leases.db"));
      Files.delete(dir);
    }
  }

  @Test
  void tenThousandLeasesOfOneManagerAreRenewedInAtMostTwoTransactionsPerHeartbeat() {
    FakePlatform platform = new FakePlatform();
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(dir.resolve("leases.db"));
        LeaseManager leases = platform.newManager(repository, TTL, HEARTBEAT)) {
      List<Lease> held = new ArrayList<>(LEASES);
      for (int i = 0; i < LEASES; i++) {
        held.add(leases.acquire("job/" + i));
      }
      Map<String, Long> revisions = revisions(repository);

      for (int heartbeat = 1; heartbeat <= 3; heartbeat++) {
        long commitsBefore = repository.commits();

        platform.advance(HEARTBEAT);

        assertThat(repository.commits() - commitsBefore)
            .as("SQLite transactions committed in heartbeat %d", heartbeat)
            .isBetween(1L, 2L);
        Map<String, Long> renewed = revisions(repository);
        assertThat(renewed).as("records after heartbeat %d", heartbeat).hasSize(LEASES);
        for (Map.Entry<String, Long> record : renewed.entrySet()) {
          assertThat(record.getValue())
              .as("revision of %s in heartbeat %d", record.getKey(), heartbeat)
              .isGreaterThan(revisions.get(record.getKey()));
        }
        revisions = renewed;
      }
      assertThat(held).allMatch(Lease::isHeld);
    }
  }

  private static Map<String, Long> revisions(SqliteLeaseRepository repository) {
    Map<String, Long> revisions = new HashMap<>();
    for (LeaseSnapshot record : repository.loadAll()) {
      revisions.put(record.key(), record.revision());
    }
    return revisions;
  }
}
