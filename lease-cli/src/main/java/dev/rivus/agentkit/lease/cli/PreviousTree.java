package dev.rivus.agentkit.lease.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the processes of the previous holder's command on this machine, so that a new holder starts
 * its command only once they are gone: every process that {@code lease run} starts, and everything
 * they start, carries {@code LEASE_KEY} and {@code LEASE_TOKEN} in its environment, and the
 * previous holder's token is one below the new one. Reads {@code /proc/PID/environ}, so it sees the
 * processes of the same user (all of them for root), on Linux; elsewhere it finds none. A process
 * that replaced its environment is not found. Stateless; thread-safe.
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
    byte[] keyEntry = entry(CommandSupervisor.LEASE_KEY, key);
    byte[] tokenEntry = entry(CommandSupervisor.LEASE_TOKEN, Long.toString(generation - 1));
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

  private static boolean carries(Path environ, byte[] keyEntry, byte[] tokenEntry) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(environ);
    } catch (IOException | SecurityException e) {
      return false; // gone meanwhile, or another user's
    }
    if (!contains(bytes, keyEntry) || !contains(bytes, tokenEntry)) {
      return false;
    }
    long runPid = runPid(bytes);
    return runPid <= 0 || ProcessHandle.of(runPid).map(p -> !p.isAlive()).orElse(true);
  }

  /** The value of {@code LEASE_RUN_PID} in an environment, or 0. */
  private static long runPid(byte[] environ) {
    String prefix = CommandSupervisor.LEASE_RUN_PID + "=";
    for (String variable : new String(environ, StandardCharsets.UTF_8).split("\0")) {
      if (variable.startsWith(prefix)) {
        try {
          return Long.parseLong(variable.substring(prefix.length()));
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }

  /** {@code NAME=value} between NUL separators, as the kernel lists the environment. */
  private static byte[] entry(String name, String value) {
    return ("\0" + name + "=" + value + "\0").getBytes(StandardCharsets.UTF_8);
  }

  /** Whether {@code entry} occurs in {@code environ}, whose first variable has no NUL before it. */
  private static boolean contains(byte[] environ, byte[] entry) {
    int length = environ.length + 1; // as if a NUL preceded the first variable
    outer:
    for (int start = 0; start + entry.length <= length + 1; start++) {
      for (int i = 0; i < entry.length; i++) {
        int at = start + i - 1;
        byte b = at < 0 ? 0 : at < environ.length ? environ[at] : 0;
        if (b != entry[i]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
