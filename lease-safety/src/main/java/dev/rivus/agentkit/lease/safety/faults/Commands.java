/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.JsonLines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the system commands of the storage faults ({@code mount}, {@code chattr}, {@code kill}) to
 * their end, at most 30 s each.
 *
 * <p>Thread-safe: no state.
 */
final class Commands {

  private Commands() {}

  /** Runs a command to its end; its exit code, or -1 if it could not run or took too long. */
  static int run(String... command) {
    return run(new StringBuilder(), command);
  }

  /** Runs a command; a failure goes to the driver's log with the command's output. */
  static int logged(JsonLines log, String... command) {
    StringBuilder output = new StringBuilder();
    int code = run(output, command);
    if (code != 0) {
      Map<String, Object> line = StoreSite.note("command_failed");
      line.put("command", String.join(" ", command));
      line.put("code", code);
      line.put("output", output.toString());
      log.write(line);
    }
    return code;
  }

  private static int run(StringBuilder output, String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      output.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
