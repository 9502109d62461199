/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tiny tmpfs, so that a test can fill a disk for real. Mounting needs root (or CAP_SYS_ADMIN);
 * where that is missing the test is skipped, not passed.
 */
final class SmallFileSystem implements AutoCloseable {

  private final Path path;

  private SmallFileSystem(Path path) {
    this.path = path;
  }

  static SmallFileSystem mount(Path path, String size) throws Exception {
    Files.createDirectories(path);
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", path.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(mount.getInputStream().readAllBytes());
    assumeThat(mount.waitFor()).as("mount a tmpfs (needs root): %s", output).isZero();
    return new SmallFileSystem(path);
  }

  Path path() {
    return path;
  }

  /** Writes a filler file until the file system has no space left. */
  void fill() throws IOException {
    byte[] block = new byte[4096];
    try (OutputStream out = Files.newOutputStream(path.resolve("filler"))) {
      while (true) {
        out.write(block);
        out.flush();
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
  }

  @Override
  public void close() throws Exception {
    new ProcessBuilder("umount", "-l", path.toString()).inheritIO().start().waitFor();
  }
}
