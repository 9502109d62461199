/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A directory laid out like the parts of a Linux {@code /proc} that {@link LinuxProcessFacts}
 * reads.
 */
final class FakeProcTree {

  static final long OWN_PID = 4242;
  static final long OWN_START = 5000;
  static final String BOOT_ID = "8d238104-e8cf-42cf-9b48-991c66e22f51";
  static final String PID_NAMESPACE = "pid:[4026531836]";

  private final Path root;

  /**
   * Lays out a tree for process {@link #OWN_PID} with a boot id, a pid namespace and no hidepid.
   */
  FakeProcTree(Path root) {
    this.root = root;
    write("sys/kernel/random/boot_id", BOOT_ID + "\n");
    process(OWN_PID, "java", 'S', OWN_START);
    link("self", Long.toString(OWN_PID));
    link(OWN_PID + "/ns/pid", PID_NAMESPACE);
    mountInfo("rw,nosuid,nodev,noexec,relatime", "rw");
  }

  Path root() {
    return root;
  }

  /** Writes {@code <pid>/stat} for a process with the given command name, state and start time. */
  FakeProcTree process(long pid, String command, char state, long startTicks) {
    write(pid + "/stat", statLine(pid, command, state, startTicks));
    return this;
  }

  /** Replaces {@code self/mountinfo} with one proc mount at the tree's root. */
  FakeProcTree mountInfo(String mountOptions, String superOptions) {
    write(
        OWN_PID + "/mountinfo",
        "1 0 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
            + "21 1 0:20 / "
            + escaped(root)
            + " "
            + mountOptions
            + " shared:12 - proc proc "
            + superOptions
            + "\n");
    return this;
  }

  FakeProcTree write(String relative, String content) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  FakeProcTree delete(String relative) {
    try {
      Files.delete(root.resolve(relative));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  FakeProcTree link(String relative, String target) {
    try {
      Path link = root.resolve(relative);
      Files.createDirectories(link.getParent());
      Files.deleteIfExists(link);
      Files.createSymbolicLink(link, Path.of(target));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Facts of {@link #OWN_PID} over this tree; {@code root} says whether it sees hidden processes.
   */
  LinuxProcessFacts facts(boolean root) {
    return new LinuxProcessFacts(this.root, OWN_PID, () -> root);
  }

  /** A stat line as the kernel writes it: fields 1 to 52, start time in field 22. */
  static String statLine(long pid, String command, char state, long startTicks) {
    StringBuilder line = new StringBuilder();
    line.append(pid).append(" (").append(command).append(") ").append(state);
    for (int field = 4; field <= 52; field++) {
      line.append(' ').append(field == 22 ? startTicks : field * 10);
    }
    return line.append('\n').toString();
  }

  static String escaped(Path path) {
    return path.toAbsolutePath()
        .normalize()
        .toString()
        .replace("\\", "\\134")
        .replace(" ", "\\040")
        .replace("\t", "\\011")
        .replace("\n", "\\012");
  }
}
