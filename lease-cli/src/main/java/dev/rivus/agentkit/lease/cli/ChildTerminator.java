package dev.rivus.agentkit.lease.cli;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Stops a command: SIGTERM to the command, then, if it is still running after the grace period,
 * SIGKILL to it and to every process it started that is still its descendant. Thread-safe.
 */
final class ChildTerminator {

  private final Duration grace;

  ChildTerminator(Duration grace) {
    this.grace = grace;
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
      if (!grace.isZero()) {
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

  private static void kill(Process child) {
    // Taken before the kill: once the command is gone, its children are no longer its descendants.
    List<ProcessHandle> descendants = child.descendants().collect(Collectors.toList());
    child.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
  }
}
