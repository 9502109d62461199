/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Deletes the benchmarks' scratch directories. */
final class TempDirs {

  private TempDirs() {}

  static void delete(Path dir) throws IOException {
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(dir)) {
      paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
    }
    for (Path path : paths) {
      Files.deleteIfExists(path);
    }
  }
}
