/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteCloseTest {

  @TempDir Path dir;

  @Test
  void closingALeaseOnAnInterruptedThreadStillReleasesIt() {
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(dir.resolve("l.db"));
        LeaseManager manager =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(60))
                .heartbeat(Duration.ofSeconds(15))
                .build()) {
      Lease lease = manager.acquire("job");

      Thread.currentThread().interrupt();
      lease.close();

      assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
      assertThat(repository.load("job").orElseThrow().isHeld()).isFalse();
    }
  }

  @Test
  void aDamagedTimestampOrAHugePruneAgeGivesATypedFailureOrNothing() throws Exception {
    Path file = dir.resolve("l.db");
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file);
        LeaseManager manager =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(60))
                .heartbeat(Duration.ofSeconds(15))
                .build()) {
      manager.acquire("job").close();

      assertThat(repository.prune(Duration.ofDays(999_999_999_999L))).isZero();

      try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement statement = raw.createStatement()) {
        statement.executeUpdate("UPDATE lease SET updated_at_seconds = 9000000000000000000");
      }
      assertThatThrownBy(() -> repository.load("job"))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("l.db");
      assertThatThrownBy(repository::loadAll).isInstanceOf(LeaseRepositoryFailure.class);
    }
  }
}
