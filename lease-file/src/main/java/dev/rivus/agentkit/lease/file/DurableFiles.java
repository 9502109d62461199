/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.support.FileModes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;

/**
 * Durable file writes: the data reaches the disk before a record is replaced, and the rename too.
 */
final class DurableFiles {

  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private DurableFiles() {}

  /**
   * Replaces {@code target} with {@code content} so that a reader sees either the old or the new
   * file, never a part, and a power loss after the return keeps the new one. The caller holds the
   * target's write lock, which also makes {@code temporary} its own; a temporary file left by a
   * crash is overwritten by the next write.
   */
  static void replace(Path target, Path temporary, byte[] content) throws IOException {
    boolean moved = false;
    try {
      try (FileChannel out =
          FileChannel.open(
              temporary,
              EnumSet.of(
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.TRUNCATE_EXISTING),
              FileModes.file())) { // the record takes the temporary file's permissions
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        out.force(true);
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
      moved = true;
    } finally {
      if (!moved) {
        deleteQuietly(temporary);
      }
    }
    // A record file always lies in the repository's directory.
    syncDirectory(Objects.requireNonNull(target.getParent(), "target's directory"));
  }

  /**
   * Makes the directory's entries durable (a rename, a new file). Windows cannot open a directory
   * as a file and makes renames durable on its own terms, so there the step is skipped.
   */
  static void syncDirectory(Path directory) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(directory, StandardOpenOption.READ);
    } catch (IOException e) {
      if (WINDOWS) {
        return;
      }
      throw e;
    }
    try (channel) {
      channel.force(true);
    } catch (IOException e) {
      if (!WINDOWS) {
        throw e;
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // Best effort: the next write under the same lock truncates the leftover anyway.
    }
  }
}
