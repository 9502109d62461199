/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a command as a child process while a lease is held: with {@code LEASE_KEY} and {@code
 * LEASE_TOKEN} in its environment and this process's standard streams, until it exits or the lease
 * is lost. On loss the command is stopped (see {@link ChildTerminator}) and the result is the lost
 * code.
 *
 * <p>Must be called on the thread that lives as long as the process (see {@link ParentDeathGuard}).
 */
final class CommandSupervisor {

  /** The environment variable that names the lease key. */
  static final String LEASE_KEY = "LEASE_KEY";

  /** The environment variable that carries the fencing token (the generation). */
  static final String LEASE_TOKEN = "LEASE_TOKEN";

  /** The environment variable that names the pid of the {@code lease run} holding the lease. */
  static final String LEASE_RUN_PID = "LEASE_RUN_PID";

  /** What a shell reports for a process ended by SIGTERM. */
  private static final int SIGTERM_EXIT = 128 + 15;

  private final ParentDeathGuard guard;
  private final ChildTerminator terminator;
  private final ShutdownHook hook;
  private final PrintWriter err;
  private volatile boolean started;

  CommandSupervisor(
      ParentDeathGuard guard, ChildTerminator terminator, ShutdownHook hook, PrintWriter err) {
    this.guard = guard;
    this.terminator = terminator;
    this.hook = hook;
    this.err = err;
  }

  /**
   * Runs the command under the lease.
   *
   * @param lease the held lease
   * @param command the command and its arguments
   * @return the command's exit code (128 + signal if a signal ended it), or {@link ExitCodes#LOST}
   *     with the loss said on stderr, or 143 without a start if {@code lease} is being stopped
   * @throws CliFailure if the command cannot be started
   * @throws InterruptedException if interrupted while the command runs; the command is killed first
   */
  FencedCommand.Outcome run(Lease lease, List<String> command) throws InterruptedException {
    if (!lease.isHeld()) {
      // Lost between acquiring and starting (a pause): the token is already stale.
      err.println("lease run: lease '" + lease.key() + "' was lost before the command started");
      err.flush();
      return new FencedCommand.Outcome(ExitCodes.LOST, false, true);
    }
    Optional<Process> started = hook.startUnlessShuttingDown(() -> start(lease, command));
    if (started.isEmpty()) {
      // lease itself is being stopped: the command was never started
      return new FencedCommand.Outcome(SIGTERM_EXIT, false, false);
    }
    this.started = true;
    Process child = started.get();
    CountDownLatch settled = new CountDownLatch(1);
    CompletableFuture<LeaseLost> lost = lease.lost().toCompletableFuture();
    countDownWhenDone(child.onExit(), settled);
    countDownWhenDone(lost, settled);
    try {
      settled.await();
    } catch (InterruptedException e) {
      ChildTerminator.kill(child);
      throw e;
    }
    if (lost.isDone()) {
      terminator.terminate(child);
      // Lost before or while the command ended: part of its work may have run unfenced.
      LeaseLost loss = lost.join();
      err.println(
          "lease run: lease '"
              + loss.key()
              + "' generation "
              + loss.generation()
              + " was lost ("
              + LossWords.of(loss.reason())
              + ") while the command ran; the command was stopped (SIGTERM, SIGKILL after "
              + DurationConverter.format(terminator.grace())
              + ")");
      err.flush();
      return new FencedCommand.Outcome(ExitCodes.LOST, true, true);
    }
    return FencedCommand.Outcome.exited(child.exitValue());
  }

  /** Whether {@link #run} started the command's process (also when it then threw). */
  boolean started() {
    return started;
  }

  private Process start(Lease lease, List<String> command) {
    ProcessBuilder builder =
        new ProcessBuilder(guard.wrap(command, terminator.grace())).inheritIO();
    Map<String, String> environment = builder.environment();
    environment.put(LEASE_KEY, lease.key());
    environment.put(LEASE_TOKEN, Long.toString(lease.generation()));
    environment.put(LEASE_RUN_PID, Long.toString(ProcessHandle.current().pid()));
    try {
      return builder.start();
    } catch (IOException e) {
      // Only reached without the guard (with it, sh reports 126/127 itself, like a shell).
      boolean missing = String.valueOf(e.getMessage()).contains("error=2,");
      throw new CliFailure(
          missing ? ExitCodes.NOT_FOUND : ExitCodes.CANNOT_EXECUTE,
          "cannot run '" + command.get(0) + "': " + e.getMessage());
    }
  }

  // The stage thenRun returns is not watched: counting down cannot fail.
  @SuppressWarnings("FutureReturnValueIgnored")
  private static void countDownWhenDone(CompletableFuture<?> stage, CountDownLatch latch) {
    stage.thenRun(latch::countDown);
  }
}
