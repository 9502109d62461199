/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLeaseRepositoryListingTest {

  @TempDir Path directory;

  @Test
  void listsEveryStoredRecordWithItsExactKeyAndNothingElse() {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    repository.save(Samples.firstWrite("a/b", "h-1"));
    repository.save(Samples.firstWrite("../üñí", "h-1"));
    LeaseSnapshot first = Samples.first("c", "h-1");
    repository.save(Samples.firstWrite("c", "h-1"));
    repository.save(first.release(Samples.TIME));

    assertThat(repository.loadAll())
        .extracting(LeaseSnapshot::key)
        .containsExactlyInAnyOrder("a/b", "../üñí", "c");
    assertThat(repository.loadAll())
        .filteredOn(s -> s.key().equals("c"))
        .singleElement()
        .isEqualTo(first.release(Samples.TIME).snapshot());
  }

  @Test
  void anEmptyDirectoryListsNothing() {
    assertThat(FileLeaseRepository.open(directory).loadAll()).isEmpty();
  }

  @Test
  void aRecordCopiedUnderAnotherKeysFileNameIsReportedNotListed() throws IOException {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    repository.save(Samples.firstWrite("a", "h-1"));
    Path original = new RecordNames(directory, "a").record();
    Files.copy(original, directory.resolve("stray.json"));

    assertThatThrownBy(repository::loadAll)
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("stray.json")
        .hasMessageContaining("copied or renamed by hand");
  }

  @Test
  void aCorruptRecordFailsTheListingNamingTheFile() throws IOException {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    Files.write(directory.resolve("broken.json"), "{\"key\":".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(repository::loadAll)
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("broken.json");
  }
}
