/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Whether a proc file system may hide processes from this one ({@code hidepid}), and whether this
 * process sees them anyway. Both answers lean to the safe side: when in doubt, processes may be
 * hidden and this process does not see them, so a missing pid is never taken for a gone process.
 */
final class ProcVisibility {

  /** The capability that lets a process see through {@code hidepid} (linux/capability.h). */
  private static final int CAP_SYS_PTRACE = 19;

  /** The uid map of the initial user namespace, where capabilities reach every process. */
  private static final String INITIAL_UID_MAP = "0 0 4294967295";

  private ProcVisibility() {}

  /**
   * Tells whether the proc file system mounted at {@code procRoot} may hide other processes:
   * mounted with {@code hidepid} (other than {@code 0}/{@code off}) or {@code subset=pid}, or of
   * unknown options because the mount tables cannot be read or do not show a proc mount there.
   */
  static boolean mayHideProcesses(Path procRoot) {
    String mountPoint = procRoot.toAbsolutePath().normalize().toString();
    String options = optionsFromMountInfo(procRoot.resolve("self/mountinfo"), mountPoint);
    if (options == null) {
      options = optionsFromMounts(procRoot.resolve("mounts"), mountPoint);
    }
    return options == null || hidesProcesses(options);
  }

  /**
   * Tells whether this process sees every process despite {@code hidepid}: it holds {@code
   * CAP_SYS_PTRACE} (what root has) in the initial user namespace. Root inside a user namespace or
   * without that capability (a default Docker container) does not.
   */
  static boolean seesHiddenProcesses(Path procRoot) {
    try {
      String uidMap = Files.readString(procRoot.resolve("self/uid_map"), StandardCharsets.UTF_8);
      if (!uidMap.trim().replaceAll("\\s+", " ").equals(INITIAL_UID_MAP)) {
        return false;
      }
      for (String line :
          Files.readAllLines(procRoot.resolve("self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("CapEff:")) {
          return new BigInteger(line.substring("CapEff:".length()).trim(), 16)
              .testBit(CAP_SYS_PTRACE);
        }
      }
      return false;
    } catch (IOException | RuntimeException unreadable) {
      return false;
    }
  }

  /**
   * Mount and super-block options of the topmost mount at {@code mountPoint}, or null if unknown.
   */
  private static @Nullable String optionsFromMountInfo(Path mountInfo, String mountPoint) {
    // id parent major:minor root mount-point options [optional fields...] - type source
    // super-options
    String found = null;
    for (String line : readLines(mountInfo)) {
      List<String> fields = List.of(line.trim().split(" "));
      int separator = fields.indexOf("-");
      if (separator < 6 || fields.size() < separator + 4) {
        continue;
      }
      if (unescape(fields.get(4)).equals(mountPoint)) {
        found =
            "proc".equals(fields.get(separator + 1))
                ? fields.get(5) + "," + fields.get(separator + 3)
                : null;
      }
    }
    return found;
  }

  /** Options of the topmost mount at {@code mountPoint} in a mounts table, or null if unknown. */
  private static @Nullable String optionsFromMounts(Path mounts, String mountPoint) {
    // source mount-point type options dump pass
    String found = null;
    for (String line : readLines(mounts)) {
      String[] fields = line.trim().split(" ");
      if (fields.length >= 4 && unescape(fields[1]).equals(mountPoint)) {
        found = "proc".equals(fields[2]) ? fields[3] : null;
      }
    }
    return found;
  }

  private static boolean hidesProcesses(String options) {
    for (String option : options.split(",")) {
      if (option.startsWith("hidepid=")) {
        String level = option.substring("hidepid=".length());
        if (!level.equals("0") && !level.equals("off")) {
          return true;
        }
      } else if (option.equals("subset=pid")) {
        return true;
      }
    }
    return false;
  }

  private static List<String> readLines(Path file) {
    try {
      // Decoding by String (not readAllLines) replaces bad bytes instead of failing on them.
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException | RuntimeException unreadable) {
      return List.of();
    }
  }

  /** Undoes the kernel's octal escapes ({@code \040} for a space) in a mount point. */
  static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length() && isOctal(field, i + 1)) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String text, int from) {
    for (int i = from; i < from + 3; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return true;
  }
}
