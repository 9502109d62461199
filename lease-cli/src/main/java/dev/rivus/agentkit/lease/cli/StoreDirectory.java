/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Refuses a file store ({@code sqlite:}, {@code dir:}) named on the command line whose directory
 * does not exist, as {@code SqliteLeaseRepository.open} does: the store providers create missing
 * directories, which is right for the default state directory but turns a mistyped {@code --db
 * /var/lib/lease/jbos/leases.db} into a second, empty store.
 */
final class StoreDirectory {

  /** The schemes whose location is a path: a database file, a directory of records. */
  private static final Set<String> FILE_SCHEMES = Set.of("sqlite", "dir");

  private StoreDirectory() {}

  /**
   * Checks that the directory holding the request's store exists.
   *
   * @param request the store named by an option
   * @throws CliFailure with the repository code if that directory is missing or not a directory
   */
  static void requireParentOf(StoreRequest request) {
    if (!FILE_SCHEMES.contains(request.scheme()) || request.location().isEmpty()) {
      return; // not a file store; or an empty location, which the provider names in its words
    }
    Path store = request.locationPath("store");
    Path parent = store.getParent();
    if (parent == null || Files.isDirectory(parent)) {
      return;
    }
    boolean exists = Files.exists(parent);
    throw new CliFailure(
        ExitCodes.REPOSITORY,
        "the directory of the store '"
            + store
            + "' "
            + (exists ? "is not a directory: " : "does not exist: ")
            + parent
            + (exists ? " (check the path)" : " (create it first, or check the path)"));
  }
}
