/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.resource;

import dev.rivus.agentkit.lease.safety.JsonLines;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The protected resource's process: {@code ResourceMain LOG fencing|no-fencing}. Prints {@code PORT
 * n} once it listens, and runs until its standard input ends (the driver closes it, or dies). Never
 * faulted.
 *
 * <p>A program: the resource it serves handles one request at a time, whatever the connection.
 */
public final class ResourceMain {

  private ResourceMain() {}

  /**
   * Runs the resource.
   *
   * @param args the log file, and {@code fencing} or {@code no-fencing}
   * @throws IOException if standard input cannot be read
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2 || !args[1].matches("fencing|no-fencing")) {
      System.err.println("usage: ResourceMain LOG fencing|no-fencing");
      System.exit(64);
    }
    try (JsonLines log = JsonLines.append(Path.of(args[0]));
        ResourceServer server =
            ResourceServer.start(new ProtectedResource(log, args[1].equals("fencing")))) {
      System.out.println("PORT " + server.port());
      System.out.flush();
      while (System.in.read() >= 0) {
        // the driver's end of our input is our lifeline
      }
    }
  }
}
