/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

/**
 * An expected failure of a {@code lease} command: a one-line message for stderr and the exit code
 * to leave with. Never printed with a stack trace.
 */
final class CliFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliFailure(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
