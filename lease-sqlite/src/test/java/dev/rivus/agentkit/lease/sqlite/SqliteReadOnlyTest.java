/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database opened for reading only needs no write access: to the file, or to its directory, where
 * SQLite would keep its write-ahead log and index. Read-only by {@code chattr +i}, which holds for
 * root too; skipped where that is unavailable.
 */
class SqliteReadOnlyTest {

  @TempDir Path temp;
  private final List<Path> immutable = new ArrayList<>();

  @AfterEach
  void makeWritableAgain() throws Exception {
    for (Path path : immutable) {
      new ProcessBuilder("chattr", "-i", path.toString()).inheritIO().start().waitFor();
    }
  }

  @Test
  void anImmutableFileInAWritableDirectoryIsReadAndNotWritten() throws Exception {
    Path file = written();
    makeImmutable(file);

    try (SqliteLeaseRepository repository =
        SqliteLeaseRepository.open(file, SqliteOptions.builder().readOnly(true).build())) {
      assertThat(repository.load("k")).map(LeaseSnapshot::isHeld).contains(true);
      assertThat(repository.loadAll()).hasSize(1);
      assertThatThrownBy(() -> repository.save(Samples.firstWrite("other", "h")))
          .isInstanceOf(LeaseRepositoryFailure.class);
    }
  }

  @Test
  void aDatabaseInAnImmutableDirectoryWithoutALogIsReadAsImmutable() throws Exception {
    Path file = written();
    makeImmutable(file);
    makeImmutable(file.resolveSibling(file.getFileName() + ".fence"));
    makeImmutable(file.getParent());

    try (SqliteLeaseRepository repository =
        SqliteLeaseRepository.open(file, SqliteOptions.builder().readOnly(true).build())) {
      assertThat(repository.load("k")).map(LeaseSnapshot::isHeld).contains(true);
      assertThat(repository.loadAll())
          .singleElement()
          .extracting(LeaseSnapshot::key)
          .isEqualTo("k");
    }
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactlyInAnyOrder("leases.db", "leases.db.fence");
    }
  }

  @Test
  void aReadOnlyOpeningCreatesNothingWhereThereIsNoDatabase() {
    Path file = temp.resolve("leases.db");
    SqliteOptions reader = SqliteOptions.builder().readOnly(true).build();

    assertThatThrownBy(() -> SqliteLeaseRepository.open(file, reader))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("no lease database at");
    assertThat(temp).isEmptyDirectory();
    assertThat(SqliteOptions.defaults().readOnly()).as("the default").isFalse();
  }

  @Test
  void aWritingOpeningStillRefusesAReadOnlyFile() throws Exception {
    Path file = written();
    makeImmutable(file);

    assertThatThrownBy(() -> SqliteLeaseRepository.open(file))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("the file is read-only");
  }

  /** A database with one held record, closed (so its log is checkpointed and removed). */
  private Path written() {
    Path file = temp.resolve("store").resolve("leases.db");
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
      repository.save(Samples.firstWrite("k", "h"));
    }
    return file;
  }

  private void makeImmutable(Path path) throws Exception {
    int exit = new ProcessBuilder("chattr", "+i", path.toString()).inheritIO().start().waitFor();
    assumeTrue(exit == 0, "chattr +i is unavailable here (root ignores permission bits)");
    immutable.add(path);
  }
}
