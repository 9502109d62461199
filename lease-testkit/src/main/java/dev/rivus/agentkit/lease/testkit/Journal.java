/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The journal that fenced work appends to in the cross-process tests: one line per write, starting
 * with the writer's generation. Since every append happens under the key lock, after a re-read of
 * the record, the generations in the file must never decrease.
 */
final class Journal {

  private Journal() {}

  /**
   * Appends {@code "<generation> pid <pid>"} and forces it to the disk before returning. Opens the
   * file per append, so an interrupt that closes the channel spoils nothing for the next append.
   */
  static void append(Path journal, long generation) throws IOException {
    String line = generation + " pid " + ProcessHandle.current().pid() + "\n";
    try (FileChannel channel =
        FileChannel.open(
            journal,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
      ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      channel.force(true);
    }
  }

  /**
   * Reads the generations in the order they were written; a missing journal is empty.
   *
   * @throws AssertionError if a line is torn or malformed, naming the line
   */
  static List<Long> generations(Path journal) throws IOException {
    List<Long> generations = new ArrayList<>();
    if (!Files.exists(journal)) {
      return generations;
    }
    List<String> lines = Files.readAllLines(journal, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.matches("\\d+ pid \\d+")) {
        throw new AssertionError(
            "journal " + journal + " line " + (i + 1) + " is malformed: '" + line + "'");
      }
      generations.add(Long.parseLong(line.substring(0, line.indexOf(' '))));
    }
    return generations;
  }
}
