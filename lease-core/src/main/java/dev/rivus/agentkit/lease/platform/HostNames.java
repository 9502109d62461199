/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads this machine's host name without a DNS lookup where the system allows it. */
final class HostNames {

  private HostNames() {}

  static String current() {
    try {
      String name =
          Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
      if (!name.isEmpty()) {
        return name;
      }
    } catch (IOException | RuntimeException notLinux) {
      // fall through to the environment
    }
    for (String variable : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
      String name = System.getenv(variable);
      if (name != null && !name.isBlank()) {
        return name.trim();
      }
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
