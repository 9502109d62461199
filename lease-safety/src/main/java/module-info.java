/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The safety harness (issue 11): a driver, a protected resource, worker JVMs and a checker, one
 * package each (see the package {@code dev.rivus.agentkit.lease.safety}). Exports nothing: it is
 * run from the command line ({@code dev.rivus.agentkit.lease.safety.driver.SafetyMain}), never used
 * as a library.
 */
module dev.rivus.agentkit.lease.safety {
  requires static org.jspecify;
  requires dev.rivus.agentkit.lease;
  requires dev.rivus.agentkit.lease.file;
  requires dev.rivus.agentkit.lease.sqlite;
  requires dev.rivus.agentkit.lease.jdbc;
  requires com.zaxxer.hikari;
  requires java.sql;
  requires dev.rivus.agentkit.lease.testkit;
  requires dev.rivus.agentkit.lease.testsupport;
  requires com.fasterxml.jackson.databind;
  requires java.management;
  requires java.compiler;
  requires info.picocli;

  // The drivers' options are fields that picocli fills in (SafetyMain, MutantMain).
  opens dev.rivus.agentkit.lease.safety.driver to
      info.picocli;
}
