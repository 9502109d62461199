/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

/**
 * The exit codes of {@code lease}. They follow {@code sysexits.h} where one fits, so that they do
 * not collide with the codes most commands use (0, 1, 2, 126, 127, 128 + signal). {@code lease run}
 * otherwise exits with its command's own code.
 */
final class ExitCodes {

  /** Success; for {@code lease run}, the command exited with 0. */
  static final int OK = 0;

  /**
   * Bad command line or configuration: unknown option, missing {@code --}, empty key, bad TTL, a
   * URL of another database, two stores named at once.
   */
  static final int USAGE = 64;

  /** {@code lease release} refused: no such record, or its generation is not the one given. */
  static final int REFUSED = 65;

  /** A bug in {@code lease} itself. */
  static final int SOFTWARE = 70;

  /**
   * The lease repository failed: cannot be reached, created, opened, read or written, or is not
   * ours.
   */
  static final int REPOSITORY = 74;

  /**
   * The lease is held by another live holder (fail fast, or {@code --wait} ended), or its previous
   * holder's command or fenced work still runs: not run.
   */
  static final int HELD = 75;

  /**
   * The lease was lost before, while or as the command ran (said on stderr): the command was
   * stopped, or not started.
   */
  static final int LOST = 76;

  /** The command was found but could not be executed. */
  static final int CANNOT_EXECUTE = 126;

  /** The command was not found. */
  static final int NOT_FOUND = 127;

  /** The heading of the exit code list in every command's help. */
  static final String HEADING = "%nExit codes:%n";

  // One line per code for picocli's exitCodeList ("code:description"); annotations need constants.
  static final String OK_LINE = "  0:Success.";
  static final String RUN_OK_LINE =
      "  0:The command exited with 0 (otherwise: the command's own code).";
  static final String USAGE_LINE =
      " 64:Usage or configuration error: bad option, duration, key, TTL or URL; two stores named.";
  static final String REFUSED_LINE = " 65:Refused: no such lease, or it is at another generation.";
  static final String SOFTWARE_LINE = " 70:Internal error in lease itself.";
  static final String REPOSITORY_LINE =
      " 74:Repository failure: the lease store cannot be reached, created, opened, read or"
          + " written, or (status, list, --no-create-table) does not exist.";
  static final String HELD_LINE =
      " 75:The lease is held by another live holder, or its previous holder's command still"
          + " runs; command not run (run: or -E CODE).";
  static final String LOST_LINE =
      " 76:The lease was lost before, while or as the command ran; it was stopped or not run.";
  static final String EXEC_LINE = "126:The command could not be executed; 127: not found.";

  private ExitCodes() {}
}
