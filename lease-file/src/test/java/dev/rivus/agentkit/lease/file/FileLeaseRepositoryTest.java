/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLeaseRepositoryTest {

  @TempDir Path root;

  private FileLeaseRepository open() {
    return FileLeaseRepository.open(root.resolve("leases"));
  }

  @Test
  void loadsBackEveryFieldOfASavedSnapshot() {
    FileLeaseRepository repository = open();
    LeaseSnapshot saved =
        new LeaseSnapshot(
            "task:42",
            7,
            19,
            LeaseState.HELD,
            Samples.holder("mgr-1-3"),
            Duration.ofMillis(2_500),
            Samples.TIME);

    repository.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, saved, 0));

    assertThat(repository.load("task:42")).contains(saved);
  }

  @Test
  void loadsBackATombstoneWhoseHolderFactsAreUnknown() {
    FileLeaseRepository repository = open();
    LeaseWrite first =
        LeaseSnapshot.firstAcquisition(
            "task:1", Samples.unknownHolder("h"), Samples.TTL, Samples.TIME);
    repository.save(first);
    LeaseSnapshot tombstone =
        first.snapshot().release(Instant.parse("2030-01-01T00:00:00Z")).snapshot();

    repository.save(new LeaseWrite(LeaseWrite.Intent.RELEASE, tombstone, 1));

    assertThat(repository.load("task:1")).contains(tombstone);
    assertThat(repository.load("task:1").orElseThrow().holder())
        .isEqualTo(new HolderIdentity(Samples.unknownHolder("h").process(), "h"));
  }

  @Test
  void loadFindsNothingForAKeyNeverSaved() {
    assertThat(open().load("never")).isEmpty();
  }

  @Test
  void savesANewKeyWhenExpectingNoRecord() {
    FileLeaseRepository repository = open();

    repository.save(Samples.firstWrite("fresh", "h-1"));

    assertThat(repository.load("fresh")).map(LeaseSnapshot::revision).contains(1L);
  }

  @Test
  void refusesToCreateAKeyThatAnotherWriterCreatedFirst() {
    FileLeaseRepository repository = open();
    repository.save(Samples.firstWrite("k", "h-1"));

    assertThatThrownBy(() -> repository.save(Samples.firstWrite("k", "h-1")))
        .isInstanceOfSatisfying(
            RevisionConflict.class,
            conflict -> {
              assertThat(conflict.key()).isEqualTo("k");
              assertThat(conflict.expectedRevision()).isZero();
              assertThat(conflict.actualRevision()).hasValue(1);
            });
  }

  @Test
  void rejectsAStaleRevisionAndKeepsTheStoredRecord() {
    FileLeaseRepository repository = open();
    LeaseSnapshot first = Samples.first("k", "h-1");
    LeaseSnapshot renewed = first.renewal(Samples.TIME.plusSeconds(1)).snapshot();
    repository.save(Samples.firstWrite("k", "h-1"));
    repository.save(first.renewal(Samples.TIME.plusSeconds(1)));

    assertThatThrownBy(() -> repository.save(first.release(Samples.TIME)))
        .isInstanceOfSatisfying(
            RevisionConflict.class,
            conflict -> {
              assertThat(conflict.expectedRevision()).isEqualTo(1);
              assertThat(conflict.actualRevision()).hasValue(2);
            });
    assertThat(repository.load("k")).contains(renewed);
  }

  @Test
  void rejectsInvalidKeysWithAClearMessage() {
    FileLeaseRepository repository = open();

    assertThatThrownBy(() -> repository.load("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> repository.lockKey("x".repeat(1025)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1025");
  }

  @Test
  void anotherInstanceOnTheSameDirectorySeesTheRecord() {
    open().save(Samples.firstWrite("shared", "h-1"));

    assertThat(open().load("shared")).contains(Samples.first("shared", "h-1"));
  }

  @Test
  void writesAVersionedJsonRecordThatOtherToolsCanRead() throws IOException {
    FileLeaseRepository repository = open();
    repository.save(Samples.write("task:42", 3, 5));

    JsonNode json = new ObjectMapper().readTree(jsonFiles(repository).get(0).toFile());

    assertThat(json.get("format").asInt()).isEqualTo(2);
    assertThat(json.get("ttl").asText()).isEqualTo(Samples.TTL.toString());
    assertThat(json.get("key").asText()).isEqualTo("task:42");
    assertThat(json.get("generation").asLong()).isEqualTo(3);
    assertThat(json.get("revision").asLong()).isEqualTo(5);
    assertThat(json.get("state").asText()).isEqualTo("HELD");
    assertThat(json.at("/holder/process/pid").asLong()).isEqualTo(4121);
    assertThat(json.at("/holder/process/pidNamespace").asText()).isEqualTo("pid:[4026531836]");
    assertThat(json.at("/holder/handleId").asText()).isEqualTo("h-3");
    assertThat(json.get("updatedAt").asText()).isEqualTo(Samples.TIME.toString());
  }

  @Test
  void leavesNoTemporaryFileBehindAndOverwritesOneLeftByACrash() throws IOException {
    FileLeaseRepository repository = open();
    Path leftover = new RecordNames(repository.directory(), "k").temporary();
    Files.writeString(leftover, "{\"half\": ");

    repository.save(Samples.firstWrite("k", "h-1"));

    assertThat(leftover).doesNotExist();
    assertThat(repository.load("k")).contains(Samples.first("k", "h-1"));
  }

  @Test
  void openCreatesTheDirectoryWithItsParents() {
    Path nested = root.resolve("a/b/c");

    FileLeaseRepository repository = FileLeaseRepository.open(nested);

    assertThat(nested).isDirectory();
    assertThat(repository.directory()).isEqualTo(nested.toAbsolutePath());
  }

  @Test
  void openFailsClearlyWhenThePathIsAFile() throws IOException {
    Path file = Files.writeString(root.resolve("not-a-dir"), "x");

    assertThatThrownBy(() -> FileLeaseRepository.open(file))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(file.toString());
  }

  @Test
  void openFailsClearlyWhenTheDirectoryCannotBeCreated() throws IOException {
    Path file = Files.writeString(root.resolve("file"), "x");
    Path below = file.resolve("leases");

    assertThatThrownBy(() -> FileLeaseRepository.open(below))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("cannot create lease directory")
        .hasMessageContaining(below.toString());
  }

  @Test
  void openFailsClearlyWhenTheDirectoryIsNotWritable() throws Exception {
    Path directory = Files.createDirectory(root.resolve("read-only"));
    ReadOnlyDirectories.Restore restore = ReadOnlyDirectories.makeReadOnly(directory);
    try {
      assertThatThrownBy(() -> FileLeaseRepository.open(directory))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("not writable")
          .hasMessageContaining(directory.toString());
    } finally {
      restore.writable();
    }
  }

  @Test
  void aReadOnlyOpeningReadsADirectoryItCannotWriteAndCreatesNone() throws Exception {
    FileLeaseRepository writer = open();
    writer.save(Samples.firstWrite("k", "h-1"));
    FileOptions reader = FileOptions.builder().readOnly(true).build();
    Path missing = root.resolve("missing");

    assertThatThrownBy(() -> FileLeaseRepository.open(missing, reader))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("no lease directory at " + missing);
    assertThat(missing).doesNotExist();
    ReadOnlyDirectories.Restore restore = ReadOnlyDirectories.makeReadOnly(writer.directory());
    try (FileLeaseRepository repository = FileLeaseRepository.open(writer.directory(), reader)) {
      assertThat(repository.options().readOnly()).isTrue();
      assertThat(repository.load("k")).contains(Samples.first("k", "h-1"));
      assertThat(repository.loadAll()).hasSize(1);
    } finally {
      restore.writable();
    }
    assertThat(FileOptions.defaults().readOnly()).as("the default").isFalse();
  }

  @Test
  void saveFailsClearlyWhenTheDirectoryBecameReadOnlyAndKeepsTheRecord() throws Exception {
    FileLeaseRepository repository = open();
    repository.save(Samples.firstWrite("k", "h-1"));
    Path record = new RecordNames(repository.directory(), "k").record();
    ReadOnlyDirectories.Restore restore = ReadOnlyDirectories.makeReadOnly(repository.directory());
    try {
      assertThatThrownBy(() -> repository.save(Samples.first("k", "h-1").renewal(Samples.TIME)))
          .isInstanceOfSatisfying(
              LeaseRepositoryFailure.class, failure -> assertThat(failure.key()).contains("k"))
          .hasMessageContaining(repository.directory().toString());
      assertThat(repository.load("k")).contains(Samples.first("k", "h-1"));
    } finally {
      restore.writable();
    }
    assertThat(record).exists();
    assertThat(new RecordNames(repository.directory(), "k").temporary()).doesNotExist();
  }

  @Test
  void optionsRejectAWriteLockWaitThatIsNotPositive() {
    assertThatThrownBy(() -> FileOptions.builder().writeLockWait(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("writeLockWait");
    assertThat(FileOptions.defaults().writeLockWait()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void nullArgumentsAreRefusedNamingTheParameter() {
    assertThatThrownBy(() -> FileLeaseRepository.open(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("directory");
    assertThatThrownBy(() -> FileLeaseRepository.open(root, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("options");
    assertThatThrownBy(() -> FileOptions.builder().writeLockWait(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("writeLockWait");
  }

  static List<Path> jsonFiles(FileLeaseRepository repository) throws IOException {
    try (Stream<Path> files = Files.list(repository.directory())) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).toList();
    }
  }
}
