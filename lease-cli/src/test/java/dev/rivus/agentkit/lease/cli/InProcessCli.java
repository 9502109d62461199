/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code lease} inside the test JVM on a given repository and a fake platform: whichever store
 * the command line names, the command gets that repository, and {@link #opened()} says how it asked
 * for it.
 */
final class InProcessCli {

  private final LeaseRepository repository;
  private final FakePlatform platform;
  private final Map<String, String> environment;
  private final List<StoreRequest> opened = new ArrayList<>();

  InProcessCli(LeaseRepository repository, FakePlatform platform) {
    this(repository, platform, Map.of("LEASE_DB", "/unused/leases.db"));
  }

  InProcessCli(LeaseRepository repository, FakePlatform platform, Map<String, String> environment) {
    this.repository = repository;
    this.platform = platform;
    this.environment = environment;
  }

  Result run(String... args) {
    Repositories same =
        request -> {
          opened.add(request);
          return repository;
        };
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            environment,
            same,
            platform,
            platform.wallClock(),
            platform,
            platform::currentProcess,
            platform);
    int code = LeaseCli.execute(context, new PrintWriter(out), new PrintWriter(err), args);
    return new Result(code, out.toString(), err.toString());
  }

  /** The stores the runs asked for, in order. */
  List<StoreRequest> opened() {
    return List.copyOf(opened);
  }

  /** What one run printed and returned. */
  record Result(int code, String out, String err) {}
}
