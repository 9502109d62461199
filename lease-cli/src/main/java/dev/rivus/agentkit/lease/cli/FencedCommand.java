/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Runs the command as fenced work ({@link Lease#runFencedUninterruptibly}): under the repository's
 * key lock, after re-reading the record. A predecessor whose fenced work still runs keeps the key
 * lock, even while it is stopped (SIGSTOP, a frozen VM) and its lease was taken over: a library
 * holder inside {@code runFenced}, or another {@code lease run} whose command runs. So the command
 * starts only once that work has ended, never beside it, on one machine as on a database.
 *
 * <p>The wait for the key lock is bounded: past the patience given, the command is not run and
 * {@link WaitingAcquirer.Held} says why. The key lock is released only once the command and what is
 * left of its group have ended. Not thread-safe: one call per {@code lease run}.
 */
final class FencedCommand {

  /** How long the key lock may keep the command waiting before {@code lease} says so. */
  static final Duration REPORT_AFTER = Duration.ofSeconds(1);

  private final PrintWriter err;
  private final boolean quiet;
  private @Nullable Outcome outcome; // the command's, once it returned

  FencedCommand(PrintWriter err, boolean quiet) {
    this.err = err;
    this.quiet = quiet;
  }

  /** The command, run once the key lock is held. */
  @FunctionalInterface
  interface Command {
    /** Runs the command (or decides not to) and says what came of it. */
    Outcome run() throws InterruptedException;

    /** Whether the command's process was started; asked when {@link #run} threw. */
    default boolean started() {
      return false;
    }
  }

  /**
   * What came of a command: the exit code {@code lease run} exits with, whether the command's
   * process was started, and whether a loss of the lease was already said on stderr (then {@code
   * lease} says nothing more of it).
   */
  record Outcome(int code, boolean started, boolean lossSaid) {
    /** The command ran and exited with {@code code}, the lease held throughout as far as it saw. */
    static Outcome exited(int code) {
      return new Outcome(code, true, false);
    }
  }

  /**
   * Runs {@code command} under the key lock of {@code lease}.
   *
   * @param lease the held lease
   * @param patience how long to wait for the key lock (real time)
   * @param command the command
   * @return the command's exit code, or {@link ExitCodes#LOST} if the lease was lost before, while
   *     or as it ran (said on stderr once: by the command if it saw the loss, else here)
   * @throws WaitingAcquirer.Held if the key lock was not free within {@code patience}
   * @throws InterruptedException if interrupted from elsewhere
   */
  int run(Lease lease, Duration patience, Command command) throws InterruptedException {
    Watch watch = new Watch(Thread.currentThread(), patience);
    Thread watcher = new Thread(watch, "lease-key-lock-wait");
    watcher.setDaemon(true);
    watcher.start();
    try {
      return lease.runFencedUninterruptibly(
          token -> {
            if (!watch.begin()) {
              throw new GaveUp();
            }
            Outcome ended = command.run();
            outcome = ended;
            return ended.code();
          });
    } catch (GaveUp | InterruptedException e) {
      if (!watch.gaveUp()) {
        throw e;
      }
      Thread.interrupted(); // the watcher's interrupt, which ended the wait
      throw held(lease, patience);
    } catch (LeaseLost lost) {
      Outcome ended = outcome;
      if (ended != null && ended.lossSaid()) {
        return ExitCodes.LOST; // the command was stopped, or not started; the supervisor said so
      }
      String when;
      if (ended != null && ended.started()) {
        when = "as the command ended (it exited with " + ended.code() + ")";
      } else if (ended == null && command.started()) {
        when = "while the command was being stopped";
      } else {
        when = "before the command started";
      }
      err.println(
          "lease run: lease '"
              + lease.key()
              + "' generation "
              + lease.generation()
              + " was lost ("
              + LossWords.of(lost.reason())
              + ") "
              + when);
      err.flush();
      return ExitCodes.LOST;
    } catch (RuntimeException failure) {
      if (watch.gaveUp() && !watch.started()) {
        // The watcher's interrupt came just after the key lock was taken and failed the re-read
        // of the record (an interrupted wait for a connection): the wait ran out all the same.
        Thread.interrupted();
        throw held(lease, patience);
      }
      throw failure;
    } finally {
      if (watch.end()) {
        Thread.interrupted(); // given up as the call ended another way: the interrupt was ours
      }
      watcher.interrupt();
    }
  }

  private static WaitingAcquirer.Held held(Lease lease, Duration patience) {
    return new WaitingAcquirer.Held(
        "lease '"
            + lease.key()
            + "' is held (generation "
            + lease.generation()
            + "), but the fenced work of its previous holder still holds the key lock after "
            + DurationConverter.format(patience)
            + " (a process stopped inside it keeps it); not running the command");
  }

  /** Thrown by the fenced work when the watcher gave up first: the command must not run. */
  private static final class GaveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GaveUp() {
      super("gave up waiting for the key lock", null, false, false);
    }
  }

  /**
   * Watches the wait for the key lock: says once that it waits, and past the patience interrupts
   * the waiting thread. The decision to give up and the start of the command are taken under one
   * lock, so exactly one of them happens.
   */
  private final class Watch implements Runnable {

    private final Thread waiting;
    private final Duration patience;
    private final CountDownLatch settled = new CountDownLatch(1);
    private boolean started; // guarded by this
    private boolean gaveUp; // guarded by this

    Watch(Thread waiting, Duration patience) {
      this.waiting = waiting;
      this.patience = patience;
    }

    synchronized boolean begin() {
      if (gaveUp) {
        return false;
      }
      started = true;
      settled.countDown();
      return true;
    }

    synchronized boolean started() {
      return started;
    }

    synchronized boolean gaveUp() {
      return gaveUp;
    }

    /** Marks the call as ended; returns whether the watcher gave up (and interrupted) first. */
    synchronized boolean end() {
      settled.countDown();
      return gaveUp;
    }

    @Override
    public void run() {
      try {
        long reportAfter = Math.min(REPORT_AFTER.toNanos(), patience.toNanos());
        if (settled.await(reportAfter, TimeUnit.NANOSECONDS)) {
          return;
        }
        if (!quiet) {
          err.println(
              "lease run: waiting up to "
                  + DurationConverter.format(patience)
                  + " for the key lock: the fenced work of the previous holder still runs");
          err.flush();
        }
        if (settled.await(patience.toNanos() - reportAfter, TimeUnit.NANOSECONDS)) {
          return;
        }
        synchronized (this) {
          if (settled.getCount() == 0) { // started, or the call ended
            return;
          }
          gaveUp = true;
          waiting.interrupt();
        }
      } catch (InterruptedException e) {
        // the call ended: nothing left to watch
      }
    }
  }
}
