/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that loses writes under its users (renamed without its write-ahead log, restored from
 * an old copy, deleted) still gives tokens above every token it gave before: every acquisition
 * takes at least the wall clock in microseconds. Real managers, real files, real time.
 */
class SqliteLostStoreTokensTest {

  private static final Duration TTL = Duration.ofSeconds(2);
  private static final Duration HEARTBEAT = Duration.ofMillis(500);

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir Path dir;

  private final List<Long> given = new ArrayList<>();

  private Path database() {
    return dir.resolve("leases.db");
  }

  /**
   * {@code mv leases.db moved.db} under a holder moves the database without its write-ahead log,
   * which held the last acquisitions: the moved file shows the key released at its first token.
   */
  @Test
  @Tag("cross-process")
  void aDatabaseRenamedUnderItsHolderWithoutItsLogGivesATokenAboveEveryOneBefore()
      throws Exception {
    cycles(1); // checkpointed into the file when the repository closes
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(database());
        LeaseManager leases = manager(repository)) {
      for (int i = 0; i < 3; i++) {
        try (Lease lease = leases.acquire("report")) {
          given.add(lease.generation());
        }
      }
      Lease holder = leases.acquire("report");
      given.add(holder.generation());
      assertThat(dir.resolve("leases.db-wal")).as("the log of the last acquisitions").exists();

      Path moved = dir.resolve("moved.db");
      Files.move(database(), moved);

      // Another process, as `lease run --db moved.db` is: in this one, SQLite would share the
      // open file's log with the moved name, since they are one inode.
      try (ChildJvm successor =
          ChildJvm.start(SqliteChildMain.class, "acquire", moved.toString(), "report")) {
        String acquired = successor.awaitLine("ACQUIRED ", PATIENCE);
        assertThat(Long.parseLong(acquired.substring("ACQUIRED ".length())))
            .as("the token after the rename, against %s given before", given)
            .isGreaterThan(Collections.max(given));
        successor.awaitLine("DONE", PATIENCE);
      }
      await()
          .atMost(TTL)
          .untilAsserted(
              () -> assertThat(holder.isHeld()).as("the holder of the renamed store").isFalse());
    }
  }

  @Test
  void aDatabaseRestoredFromAnOldCopyGivesATokenAboveEveryOneBefore() throws Exception {
    cycles(1);
    Path backup = dir.resolve("backup.db");
    Files.copy(database(), backup);
    cycles(3);

    Files.copy(backup, database(), StandardCopyOption.REPLACE_EXISTING);

    assertThat(cycles(1)).isGreaterThan(Collections.max(given.subList(0, given.size() - 1)));
  }

  @Test
  void aDatabaseDeletedAndMadeAnewGivesATokenAboveEveryOneBefore() throws Exception {
    cycles(3);

    StoreFiles.deleteAll(database());

    assertThat(cycles(1)).isGreaterThan(Collections.max(given.subList(0, given.size() - 1)));
  }

  /** Acquires and releases the key {@code count} times in a repository opened for them. */
  private long cycles(int count) throws Exception {
    long last = 0;
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(database());
        LeaseManager leases = manager(repository)) {
      for (int i = 0; i < count; i++) {
        try (Lease lease = leases.acquire("report")) {
          last = lease.generation();
          given.add(last);
        }
      }
    }
    return last;
  }

  private static LeaseManager manager(SqliteLeaseRepository repository) {
    return LeaseManager.builder(repository).ttl(TTL).heartbeat(HEARTBEAT).build();
  }
}
