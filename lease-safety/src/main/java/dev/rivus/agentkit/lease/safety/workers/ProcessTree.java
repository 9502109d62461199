/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The command tree of a {@code lease run}, found in {@code /proc} by its environment: every process
 * {@code lease run} starts carries {@code LEASE_RUN_PID}, and so do their children, whatever group
 * or session they moved to. P7's second half: none may outlive a {@code kill -9} of its {@code
 * lease} process.
 *
 * <p>Thread-safe: stateless.
 */
final class ProcessTree {

  private ProcessTree() {}

  /** The processes whose environment names {@code pid} as their {@code lease run}. */
  static List<Long> of(long pid) {
    byte[] marker = ("LEASE_RUN_PID=" + pid + "\0").getBytes(StandardCharsets.UTF_8);
    List<Long> found = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.toList()) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          byte[] env = Files.readAllBytes(p.resolve("environ"));
          if (indexOf(env, marker) >= 0) {
            found.add(Long.parseLong(name));
          }
        } catch (IOException | SecurityException gone) {
          // exited meanwhile, or not ours to read
        }
      }
    } catch (IOException e) {
      // no /proc: nothing to find
    }
    return found;
  }

  /** Where {@code needle} starts a variable of {@code environ} (NUL-separated), or -1. */
  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (i > 0 && haystack[i - 1] != 0) {
        continue;
      }
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
