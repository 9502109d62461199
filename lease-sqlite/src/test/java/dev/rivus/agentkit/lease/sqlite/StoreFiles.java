/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What an operator does to a lease database's files, for the tests. */
final class StoreFiles {

  private StoreFiles() {}

  /** Deletes the database and every file named after it, as {@code rm leases.db*} does. */
  static void deleteAll(Path database) throws IOException {
    String prefix = database.getFileName().toString();
    List<Path> files;
    try (Stream<Path> listing = Files.list(database.getParent())) {
      files = listing.filter(f -> f.getFileName().toString().startsWith(prefix)).toList();
    }
    for (Path file : files) {
      Files.deleteIfExists(file);
    }
  }
}
