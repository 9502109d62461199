/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.UUID;

/**
 * Makes a directory read-only for the running user, also for root (which ignores permission bits):
 * first by permission bits, and if files can still be created, by the immutable attribute ({@code
 * chattr +i}). When neither works the test is skipped with the reason.
 */
final class ReadOnlyDirectories {

  private ReadOnlyDirectories() {}

  /** Makes the directory writable again. */
  interface Restore {
    void writable() throws IOException;
  }

  static Restore makeReadOnly(Path directory) throws IOException {
    Set<PosixFilePermission> before = Files.getPosixFilePermissions(directory);
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-xr-xr-x"));
    if (!canCreateFileIn(directory)) {
      return () -> Files.setPosixFilePermissions(directory, before);
    }
    Files.setPosixFilePermissions(directory, before);
    boolean immutable = run("chattr", "+i", directory.toString()) && !canCreateFileIn(directory);
    if (!immutable) {
      run("chattr", "-i", directory.toString());
    }
    assumeTrue(
        immutable,
        "the tests run as a user that ignores permission bits (root) and 'chattr +i' is unavailable"
            + " here, so no read-only directory can be simulated");
    return () -> run("chattr", "-i", directory.toString());
  }

  private static boolean canCreateFileIn(Path directory) {
    Path probe = directory.resolve("probe-" + UUID.randomUUID());
    try {
      Files.createFile(probe);
      Files.delete(probe);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean run(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
