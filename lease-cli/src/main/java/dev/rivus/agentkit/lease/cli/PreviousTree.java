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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds what is left of a previous holder's command on this machine, so that a new holder starts
 * its command only once it is gone: every process that {@code lease run} starts, and everything
 * they start, carries {@code LEASE_KEY}, {@code LEASE_TOKEN} and {@code LEASE_RUN_PID} (the pid of
 * that {@code lease run}) in its environment, and every earlier holder's token is below the new one
 * (not one below it: a generation may jump to the wall clock's microseconds). A process of the same
 * key with a lower token is waited for, whichever earlier holder started it; one of another store
 * with the same key name is waited for too, as this process cannot tell the stores apart by the
 * environment. Asked under the key lock, which the previous {@code lease run} holds until its
 * command's group has ended: any such process still running left the group (a {@code setsid}, a
 * daemon's double fork), or is the tail of a group being killed, whether its {@code lease run} is
 * still alive (exiting, or resumed after a stop and stopping its command) or gone. Reads {@code
 * /proc/PID/environ}, so it sees the processes of the same user (all of them for root), on Linux;
 * elsewhere it finds none. A process that replaced its environment is not found, nor are this
 * process and its ancestors. Stateless; thread-safe.
 */
final class PreviousTree {

  private static final Path PROC = Path.of("/proc");

  private PreviousTree() {}

  /**
   * Returns the pids of the running processes started under {@code key} with a token below {@code
   * generation}.
   */
  static List<Long> of(String key, long generation) {
    List<Long> found = new ArrayList<>();
    if (generation <= 1 || !Files.isDirectory(PROC)) {
      return found;
    }
    String keyEntry = entry(CommandSupervisor.LEASE_KEY, key);
    Set<Long> lineage = lineage();
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path process : processes) {
        long pid = Long.parseLong(process.getFileName().toString());
        if (!lineage.contains(pid) && carries(process.resolve("environ"), keyEntry, generation)) {
          found.add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      // /proc unreadable as a whole: nothing this machine can tell
    }
    return found;
  }

  /**
   * This process and its ancestors: a command that starts {@code lease run} on its own key again (a
   * job that relaunches itself with {@code setsid}) passes its variables down to it, and must not
   * be waited for by its own child.
   */
  private static Set<Long> lineage() {
    Set<Long> pids = new HashSet<>();
    Optional<ProcessHandle> at = Optional.of(ProcessHandle.current());
    while (at.isPresent() && pids.add(at.get().pid())) {
      at = at.get().parent();
    }
    return pids;
  }

  private static boolean carries(Path environ, String keyEntry, long generation) {
    String variables;
    try {
      // NUL-separated; one more NUL at each end, so that every variable stands between two.
      variables = "\0" + new String(Files.readAllBytes(environ), StandardCharsets.UTF_8) + "\0";
    } catch (IOException | SecurityException e) {
      return false; // gone meanwhile, or another user's
    }
    if (!variables.contains(keyEntry)) {
      return false;
    }
    String tokenStart = "\0" + CommandSupervisor.LEASE_TOKEN + "=";
    int at = variables.indexOf(tokenStart);
    if (at < 0) {
      return false;
    }
    int from = at + tokenStart.length();
    String token = variables.substring(from, variables.indexOf('\0', from));
    try {
      return Long.parseLong(token) < generation;
    } catch (NumberFormatException e) {
      return false; // set by hand to something else: not a token lease run gave
    }
  }

  /** {@code NAME=value} between NUL separators, as the kernel lists the environment. */
  private static String entry(String name, String value) {
    return "\0" + name + "=" + value + "\0";
  }
}
