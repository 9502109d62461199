/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the processes of a dead previous holder's command on this machine, so that a new holder
 * starts its command only once they are gone: every process that {@code lease run} starts, and
 * everything they start, carries {@code LEASE_KEY}, {@code LEASE_TOKEN} and {@code LEASE_RUN_PID}
 * (the pid of that {@code lease run}) in its environment, and the previous holder's token is one
 * below the new one. Only processes whose {@code lease run} is gone count: a previous holder still
 * alive (stopped, say, and taken over after the TTL) stops its own command when it resumes. Reads
 * {@code /proc/PID/environ}, so it sees the processes of the same user (all of them for root), on
 * Linux; elsewhere it finds none. A process that replaced its environment is not found. Stateless;
 * thread-safe.
 */
final class PreviousTree {

  private static final Path PROC = Path.of("/proc");

  private PreviousTree() {}

  /**
   * Returns the pids of the running processes started under {@code key} with token {@code
   * generation - 1}.
   */
  static List<Long> of(String key, long generation) {
    List<Long> found = new ArrayList<>();
    if (generation <= 1 || !Files.isDirectory(PROC)) {
      return found;
    }
    String keyEntry = entry(CommandSupervisor.LEASE_KEY, key);
    String tokenEntry = entry(CommandSupervisor.LEASE_TOKEN, Long.toString(generation - 1));
    long self = ProcessHandle.current().pid();
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path process : processes) {
        long pid = Long.parseLong(process.getFileName().toString());
        if (pid != self && carries(process.resolve("environ"), keyEntry, tokenEntry)) {
          found.add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      // /proc unreadable as a whole: nothing this machine can tell
    }
    return found;
  }

  private static boolean carries(Path environ, String keyEntry, String tokenEntry) {
    String variables;
    try {
      // NUL-separated; one more NUL at each end, so that every variable stands between two.
      variables = "\0" + new String(Files.readAllBytes(environ), StandardCharsets.UTF_8) + "\0";
    } catch (IOException | SecurityException e) {
      return false; // gone meanwhile, or another user's
    }
    if (!variables.contains(keyEntry) || !variables.contains(tokenEntry)) {
      return false;
    }
    String runPidEntry = "\0" + CommandSupervisor.LEASE_RUN_PID + "=";
    int at = variables.indexOf(runPidEntry);
    if (at < 0) {
      return true;
    }
    int from = at + runPidEntry.length();
    try {
      long runPid = Long.parseLong(variables.substring(from, variables.indexOf('\0', from)));
      return ProcessHandle.of(runPid).map(p -> !p.isAlive()).orElse(true);
    } catch (NumberFormatException e) {
      return true;
    }
  }

  /** {@code NAME=value} between NUL separators, as the kernel lists the environment. */
  private static String entry(String name, String value) {
    return "\0" + name + "=" + value + "\0";
  }
}
