/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/** Runs {@code lease} inside the test JVM on a given repository and a fake platform. */
final class InProcessCli {

  private final LeaseRepository repository;
  private final FakePlatform platform;

  InProcessCli(LeaseRepository repository, FakePlatform platform) {
    this.repository = repository;
    this.platform = platform;
  }

  Result run(String... args) {
    Repositories same =
        new Repositories() {
          @Override
          public LeaseRepository openDatabase(Path file, StoreUse use) {
            return repository;
          }

          @Override
          public LeaseRepository openDirectory(Path directory, StoreUse use) {
            return repository;
          }
        };
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            Map.of("LEASE_DB", "/unused/leases.db"),
            same,
            platform,
            platform.wallClock(),
            platform,
            platform::currentProcess,
            platform);
    int code = LeaseCli.execute(context, new PrintWriter(out), new PrintWriter(err), args);
    return new Result(code, out.toString(), err.toString());
  }

  /** What one run printed and returned. */
  record Result(int code, String out, String err) {}
}
