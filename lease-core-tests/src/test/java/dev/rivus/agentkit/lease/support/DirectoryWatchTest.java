/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivus.agentkit.lease.LeaseRepository.KeyWatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DirectoryWatch} on the platform's file notices: a change is handed to the store's
 * callback, and every watch is woken again shortly after the last change, for a change told before
 * it can be read (a SQLite commit in its WAL before its index).
 */
class DirectoryWatchTest {

  private static final Duration PATIENCE = Duration.ofSeconds(10);

  @TempDir Path dir;

  private final KeyWatches watches = new KeyWatches();
  private final List<Path> changed = new CopyOnWriteArrayList<>();

  @Test
  void aChangeIsToldToTheStoreAndWakesEveryWatchAgainAfterIt() throws Exception {
    try (DirectoryWatch directory = new DirectoryWatch(dir, watches, changed::add, "test-watch");
        KeyWatch watch = watches.open("k")) {
      assumeTrue(directory.watching(), "no native file notices on this platform");
      Files.writeString(dir.resolve("db-wal"), "frame", StandardCharsets.UTF_8);

      // The callback wakes nobody: only the wake-up after the change can end this wait.
      assertThat(watch.awaitRelease(PATIENCE)).as("woken after the change").isTrue();
      assertThat(changed).contains(Path.of("db-wal"));
    }
  }

  @Test
  void closingWakesEveryWatchAndStopsWatching() throws Exception {
    DirectoryWatch directory = new DirectoryWatch(dir, watches, changed::add, "test-watch");
    try (KeyWatch watch = watches.open("k")) {
      assumeTrue(directory.watching(), "no native file notices on this platform");
      directory.close();
      assertThat(watch.awaitRelease(PATIENCE)).isTrue();
      assertThat(directory.watching()).as("a closed watch starts no more").isFalse();
    }
  }
}
