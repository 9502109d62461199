/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import org.jspecify.annotations.Nullable;

/**
 * The two fields of a Linux {@code /proc/<pid>/stat} line that liveness needs: the state (field 3)
 * and the start time (field 22, clock ticks since boot).
 *
 * @param state the one-letter process state, {@code 'Z'} for a zombie
 * @param startTicks when the process started, in clock ticks since boot
 */
record ProcStat(char state, long startTicks) {

  /** Fields after the command name: field 3 (state) is the first, field 22 (starttime) the 20th. */
  private static final int STATE = 0;

  private static final int START_TIME = 19;

  /**
   * Parses a stat line. The command name (field 2) is written in parentheses and may itself contain
   * spaces and parentheses, so fields are counted only after the last {@code ')'}.
   *
   * @param line the contents of a stat file
   * @return the parsed fields, or {@code null} if the line is not a well-formed stat line
   */
  static @Nullable ProcStat parse(String line) {
    int endOfCommand = line.lastIndexOf(')');
    if (endOfCommand < 0) {
      return null;
    }
    String[] fields = line.substring(endOfCommand + 1).trim().split("\\s+");
    if (fields.length <= START_TIME || fields[STATE].length() != 1) {
      return null;
    }
    String start = fields[START_TIME];
    if (start.isEmpty() || !start.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return null;
    }
    try {
      return new ProcStat(fields[STATE].charAt(0), Long.parseLong(start));
    } catch (NumberFormatException tooLarge) {
      return null;
    }
  }

  /**
   * Tells whether the process has exited and only waits to be reaped (zombie or dead).
   *
   * @return {@code true} for the states {@code Z} and {@code X}
   */
  boolean hasExited() {
    return state == 'Z' || state == 'X';
  }
}
