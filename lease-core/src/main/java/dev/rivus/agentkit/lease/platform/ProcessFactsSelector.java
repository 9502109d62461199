/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import java.nio.file.Files;
import java.nio.file.Path;

/** Chooses the process facts of the running operating system. */
final class ProcessFactsSelector {

  private ProcessFactsSelector() {}

  static ProcessFacts forThisSystem() {
    return select(System.getProperty("os.name", ""), Path.of("/proc"));
  }

  /**
   * Linux with a readable proc file system at {@code proc} is judged from it; anything else is not.
   */
  static ProcessFacts select(String osName, Path proc) {
    if (osName.startsWith("Linux") && Files.isReadable(proc.resolve("self/stat"))) {
      return new LinuxProcessFacts(proc);
    }
    return new PortableProcessFacts();
  }
}
