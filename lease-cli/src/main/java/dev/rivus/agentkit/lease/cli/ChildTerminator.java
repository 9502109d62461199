/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Stops a command: SIGTERM to the command, then, if it is still running after the grace period,
 * SIGKILL to it and to every process it started that is still its descendant. Behind the reaper of
 * {@link ParentDeathGuard} the child is the reaper: SIGTERM asks it to stop the command's whole
 * process group, with the grace, and it exits once the group is gone; SIGKILL comes only if it has
 * not exited a little after the grace. Thread-safe.
 */
final class ChildTerminator {

  /** How long after the grace a reaper may still take to see its group gone and exit. */
  static final Duration REAPER_MARGIN = Duration.ofSeconds(2);

  private final Duration grace;
  private final BooleanSupplier reaped;

  /**
   * @param grace how long the command may take to exit after SIGTERM
   * @param reaped whether the command runs behind the reaper, asked when it is stopped
   */
  ChildTerminator(Duration grace, BooleanSupplier reaped) {
    this.grace = grace;
    this.reaped = reaped;
  }

  Duration grace() {
    return grace;
  }

  /**
   * Stops the command and waits until it has exited.
   *
   * @param child the command's process
   * @throws InterruptedException if interrupted while waiting; the command is then killed first
   */
  void terminate(Process child) throws InterruptedException {
    if (!child.isAlive()) {
      return;
    }
    try {
      if (reaped.getAsBoolean()) {
        child.destroy();
        if (child.waitFor(grace.plus(REAPER_MARGIN).toNanos(), TimeUnit.NANOSECONDS)) {
          return;
        }
      } else if (!grace.isZero()) {
        child.destroy();
        if (child.waitFor(grace.toNanos(), TimeUnit.NANOSECONDS)) {
          return;
        }
      }
    } finally {
      if (child.isAlive()) {
        kill(child);
      }
    }
    child.waitFor();
  }

  /** SIGKILL to the child and its descendants at once. */
  static void kill(Process child) {
    // Taken before the kill: once the command is gone, its children are no longer its descendants.
    List<ProcessHandle> descendants = child.descendants().collect(Collectors.toList());
    child.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
  }
}
