/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record directory that loses records under its users (renamed under a holder, restored from an
 * old copy, deleted) still gives tokens above every token it gave before: every acquisition takes
 * at least the wall clock in microseconds. Real managers, real files, real time.
 */
class FileLostStoreTokensTest {

  private static final Duration TTL = Duration.ofSeconds(2);
  private static final Duration HEARTBEAT = Duration.ofMillis(500);

  @TempDir Path dir;

  private final List<Long> given = new ArrayList<>();

  private Path store() {
    return dir.resolve("leases");
  }

  /**
   * {@code mv leases moved} under a holder: the holder loses its lease at its next renewal, and the
   * operator's new, empty directory under the old name and the moved one both go on above.
   */
  @Test
  void aDirectoryRenamedUnderItsHolderGivesTokensAboveEveryOneBefore() throws Exception {
    cycles(store(), 3);
    Path moved = dir.resolve("moved");
    try (FileLeaseRepository repository = FileLeaseRepository.open(store());
        LeaseManager leases = manager(repository)) {
      Lease holder = leases.acquire("report");
      given.add(holder.generation());

      Files.move(store(), moved);
      Files.createDirectory(store());

      await()
          .atMost(TTL)
          .untilAsserted(
              () -> assertThat(holder.isHeld()).as("the holder of the moved store").isFalse());
    }
    long highest = Collections.max(given);
    assertThat(cycles(store(), 1)).as("in the new directory").isGreaterThan(highest);
    assertThat(cycles(moved, 1)).as("in the moved one").isGreaterThan(highest);
  }

  @Test
  void aDirectoryRestoredFromAnOldCopyGivesATokenAboveEveryOneBefore() throws Exception {
    cycles(store(), 1);
    Path backup = dir.resolve("backup");
    copyTree(store(), backup);
    long highest = cycles(store(), 3);

    deleteTree(store());
    copyTree(backup, store());

    assertThat(cycles(store(), 1)).isGreaterThan(highest);
  }

  @Test
  void aDirectoryDeletedAndMadeAnewGivesATokenAboveEveryOneBefore() throws Exception {
    long highest = cycles(store(), 3);

    deleteTree(store());

    assertThat(cycles(store(), 1)).isGreaterThan(highest);
  }

  /** Acquires and releases the key {@code count} times; returns the last generation. */
  private long cycles(Path directory, int count) throws InterruptedException {
    long last = 0;
    try (FileLeaseRepository repository = FileLeaseRepository.open(directory);
        LeaseManager leases = manager(repository)) {
      for (int i = 0; i < count; i++) {
        // The moved directory's record names a holder that lost it: taken over after the TTL.
        try (Lease lease = leases.acquire("report", TTL.multipliedBy(3))) {
          last = lease.generation();
          given.add(last);
        }
      }
    }
    return last;
  }

  private static LeaseManager manager(FileLeaseRepository repository) {
    return LeaseManager.builder(repository).ttl(TTL).heartbeat(HEARTBEAT).build();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
