/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostileKeysTest {

  private static final String SAFE_NAME =
      "[A-Za-z0-9_-]{1,40}-[0-9a-f]{32}\\.(json|write\\.lock|fence\\.lock)";

  @TempDir Path root;

  static List<String> hostileKeys() {
    return List.of(
        "../../etc/passwd",
        "a/b",
        "..",
        ".",
        "/",
        "/etc/passwd",
        "..\\..\\windows\\system32",
        "C:\\temp\\x",
        "nul\u0000byte",
        "\u0000",
        "CON",
        "schlüssel/ключ/日本語",
        "emoji 😀 key",
        "\uD800 unpaired surrogate",
        "? question mark",
        "./" + "../".repeat(340),
        "k".repeat(1024),
        "/".repeat(1024));
  }

  @ParameterizedTest
  @MethodSource("hostileKeys")
  void aHostileKeyRoundTripsThroughSafeFileNamesInsideTheDirectory(String key) throws Exception {
    Path directory = root.resolve("leases");
    FileLeaseRepository repository = FileLeaseRepository.open(directory);

    repository.save(Samples.firstWrite(key, "h-1"));
    repository.lockKey(key).close();

    assertThat(repository.load(key)).contains(Samples.first(key, "h-1"));
    assertThat(entriesBelow(root))
        .allSatisfy(
            path ->
                assertThat(path.equals(directory) || path.getParent().equals(directory)).isTrue());
    assertThat(entriesBelow(directory))
        .extracting(path -> path.getFileName().toString())
        .allMatch(name -> name.matches(SAFE_NAME), "matches " + SAFE_NAME);
  }

  @Test
  void everyHostileKeyGetsItsOwnRecordFile() throws IOException {
    FileLeaseRepository repository = FileLeaseRepository.open(root);
    List<String> keys = hostileKeys();
    for (int i = 0; i < keys.size(); i++) {
      repository.save(Samples.write(keys.get(i), i + 1, 1));
    }

    assertThat(FileLeaseRepositoryTest.jsonFiles(repository)).hasSize(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      assertThat(repository.load(keys.get(i))).map(LeaseSnapshot::generation).contains(i + 1L);
    }
  }

  @Test
  void keysDifferingOnlyInCaseGetDistinctFiles() throws IOException {
    assertDistinct("Task:42", "task:42", "TASK:42");
  }

  @Test
  void keysDifferingOnlyInReplacedCharactersGetDistinctFiles() throws IOException {
    assertDistinct("a/b", "a.b", "a b", "a_b", "a\u0000b", "a\\b", "aéb");
  }

  @Test
  void anUnpairedSurrogateAndTheQuestionMarkItWouldEncodeToGetDistinctFiles() throws IOException {
    assertDistinct("\uD800", "?", "\uDC00");
  }

  @Test
  void longKeysSharingTheReadablePrefixGetDistinctFiles() throws IOException {
    String prefix = "p".repeat(RecordNames.PREFIX_LENGTH + 10);
    assertDistinct(prefix + "1", prefix + "2", prefix);
  }

  private void assertDistinct(String... keys) throws IOException {
    LeaseRepository repository = FileLeaseRepository.open(root);
    Set<String> bases = new HashSet<>();
    for (int i = 0; i < keys.length; i++) {
      repository.save(Samples.write(keys[i], i + 1, 1));
      bases.add(RecordNames.baseName(keys[i]).toLowerCase(java.util.Locale.ROOT));
    }
    // Distinct even when compared case-insensitively, as on macOS and Windows.
    assertThat(bases).hasSize(keys.length);
    for (int i = 0; i < keys.length; i++) {
      assertThat(repository.load(keys[i])).map(LeaseSnapshot::generation).contains(i + 1L);
    }
  }

  private static List<Path> entriesBelow(Path directory) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(path -> !path.equals(directory)).toList();
    }
  }
}
