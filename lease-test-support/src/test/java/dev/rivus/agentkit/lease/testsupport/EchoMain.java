/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A child for {@link ChildJvmTest}: says hello, echoes its input, and exits on request or EOF. */
public final class EchoMain {

  private EchoMain() {}

  public static void main(String[] args) throws IOException {
    System.out.println("HELLO " + ProcessHandle.current().pid());
    System.err.println("echo child started");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.startsWith("EXIT ")) {
        System.exit(Integer.parseInt(line.substring(5)));
      }
      System.out.println("ECHO " + line);
    }
  }
}
