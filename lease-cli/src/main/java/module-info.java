/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The {@code lease} command: runs any command under a lease, and inspects and manages leases.
 *
 * <p>A tool, not a library: it exports nothing. Its command classes are open to picocli, which
 * fills their annotated fields reflectively.
 */
module dev.rivus.agentkit.lease.cli {
  requires static org.jspecify;
  requires dev.rivus.agentkit.lease;
  // SQLite is loaded early at a start (StartupWork); every store, SQLite's too, is opened through
  // the store providers of dev.rivus.agentkit.lease.spi, found as services.
  requires dev.rivus.agentkit.lease.sqlite;
  requires info.picocli;
  requires java.logging;
  requires com.fasterxml.jackson.databind;

  opens dev.rivus.agentkit.lease.cli to
      info.picocli;

  provides System.LoggerFinder with
      dev.rivus.agentkit.lease.cli.OneLineLoggerFinder;
}
