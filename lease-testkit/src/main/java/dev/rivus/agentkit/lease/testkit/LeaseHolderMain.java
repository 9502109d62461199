/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.FencedWork;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.platform.SystemProcesses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The lease holder a child JVM runs in the cross-process tests. It opens a repository through a
 * {@link RepositoryFactory} named on the command line, acquires one key with a manager on the
 * system platform, and then appends its generation to a journal under the key lock, until the lease
 * is lost.
 *
 * <p>Arguments, each {@code --name=value}: {@code factory} (class name, required), {@code spec}
 * (passed to the factory, required), {@code key} (required), {@code ttl} and {@code heartbeat}
 * (ISO-8601 durations, default {@code PT2S} and {@code PT0.5S}), {@code wait} (the {@code maxWait}
 * of the acquisition, default {@code PT0S}: one try), {@code journal} (a file; without it the
 * holder only holds), {@code pause} (between journal writes, default {@code PT0.02S}), {@code work}
 * (time spent inside the key lock before each append, as real work would, default {@code PT0S}),
 * {@code uninterruptible} (run the work with {@link Lease#runFencedUninterruptibly}, so that only
 * the key lock keeps a late write of a lost holder in order) and {@code await-go} (wait for a
 * {@code GO} line on standard input before acquiring, so that several children race).
 *
 * <p>To act as a holder on another machine: {@code host} and {@code boot-id} replace the host name
 * and boot id of the identity the holder writes to its record (its pid, pid namespace and start
 * time stay this process's own, so that on this machine they name a real process; with another boot
 * id, the holder judges every other holder's liveness unknown, as a machine that cannot see this
 * one's processes would), and {@code wall-clock-offset} (an ISO-8601 duration, may be negative)
 * sets its wall clock that far from this machine's.
 *
 * <p>Standard output, one line per event: {@code READY <pid>}; then {@code ACQUIRED <generation>},
 * or {@code HELD <generation> <holder pid>} and exit code {@link #EXIT_HELD}; with a journal,
 * {@code WROTE <generation>} after the first fenced append, and {@code WORKING <generation>} as
 * each fenced work with a {@code work} time begins; {@code LOST <reason>} and exit code {@link
 * #EXIT_LOST} when the lease is lost; {@code RELEASED} and exit code {@link #EXIT_RELEASED} after
 * an {@code EXIT} line on standard input; {@code FAILED <what>} and {@link #EXIT_FAILED} on
 * anything else. The end of standard input means the parent is gone: the holder halts at once.
 *
 * <p>Each journal append happens inside {@link Lease#runFenced} and is forced to the disk before
 * the key lock is released.
 */
public final class LeaseHolderMain {

  /** Exit code after an {@code EXIT} command: the lease was released. */
  public static final int EXIT_RELEASED = 0;

  /** Exit code of an unexpected failure; standard output says {@code FAILED <what>}. */
  public static final int EXIT_FAILED = 1;

  /** Exit code of a bad command line. */
  public static final int EXIT_USAGE = 2;

  /** Exit code when another live holder had the lease: {@code HELD <generation> <pid>}. */
  public static final int EXIT_HELD = 3;

  /** Exit code when the lease was lost: {@code LOST <reason>}. */
  public static final int EXIT_LOST = 4;

  /** Exit code when standard input ended: the parent is gone. */
  public static final int EXIT_ORPHANED = 5;

  private static final PrintStream OUT = System.out;

  private final HolderOptions options;
  private final CountDownLatch go = new CountDownLatch(1);
  private final CompletableFuture<Void> exitRequested = new CompletableFuture<>();

  private LeaseHolderMain(HolderOptions options) {
    this.options = options;
  }

  /**
   * Runs the holder; see the class description. Always ends the JVM with one of the exit codes.
   *
   * @param args the {@code --name=value} arguments
   */
  public static void main(String[] args) {
    HolderOptions options;
    try {
      options = HolderOptions.parse(Arrays.asList(args));
    } catch (IllegalArgumentException e) {
      say("FAILED usage: " + e.getMessage());
      System.exit(EXIT_USAGE);
      return;
    }
    int code;
    try {
      code = new LeaseHolderMain(options).run();
    } catch (Exception | Error e) {
      e.printStackTrace();
      say("FAILED " + e);
      code = EXIT_FAILED;
    }
    System.exit(code);
  }

  private int run() throws Exception {
    listenToParent();
    try (LeaseRepository repository =
            RepositoryFactory.byClassName(options.factory()).open(options.spec());
        LeaseManager manager = manager(repository)) {
      say("READY " + ProcessHandle.current().pid());
      if (options.awaitGo()) {
        go.await();
      }
      Lease lease;
      try {
        lease = manager.acquire(options.key(), options.maxWait());
      } catch (LeaseHeld held) {
        say("HELD " + held.generation() + " " + held.holder().process().pid());
        return EXIT_HELD;
      }
      say("ACQUIRED " + lease.generation());
      try (lease) {
        return hold(lease);
      }
    }
  }

  /** A manager on the system platform, with the host identity and wall clock of the options. */
  private LeaseManager manager(LeaseRepository repository) {
    SystemProcesses system = SystemProcesses.detect();
    ProcessIdentity self = system.currentProcess();
    String host = options.host();
    String bootId = options.bootId();
    ProcessIdentity written =
        new ProcessIdentity(
            host != null ? host : self.host(),
            bootId != null ? bootId : self.bootId(),
            self.pidNamespace(),
            self.pid(),
            self.processStart());
    return LeaseManager.builder(repository)
        .ttl(options.ttl())
        .heartbeat(options.heartbeat())
        .currentProcess(written)
        .livenessJudge(bootId != null ? LivenessJudge.unknown() : system)
        .wallClock(Clock.offset(Clock.systemUTC(), options.wallClockOffset()))
        .build();
  }

  /** Works (or just waits) until the lease is lost or the parent asks to exit. */
  private int hold(Lease lease) throws Exception {
    CompletableFuture<LeaseLost> lost = lease.lost().toCompletableFuture();
    CompletableFuture<Object> stop = CompletableFuture.anyOf(lost, exitRequested);
    Path journal = options.journal();
    boolean wrote = false;
    while (true) {
      if (journal != null) {
        try {
          FencedWork<Long, IOException> work =
              token -> {
                // Simulated work between the re-read and the write: the window a stale write needs.
                if (!options.work().isZero()) {
                  say("WORKING " + token.generation());
                  TimeUnit.NANOSECONDS.sleep(options.work().toNanos());
                }
                Journal.append(journal, token.generation());
                return token.generation();
              };
          if (options.uninterruptible()) {
            lease.runFencedUninterruptibly(work);
          } else {
            lease.runFenced(work);
          }
        } catch (LeaseLost loss) {
          return lostBecause(loss);
        }
        if (!wrote) {
          say("WROTE " + lease.generation());
          wrote = true;
        }
      }
      long pause = journal == null ? Long.MAX_VALUE : options.pause().toNanos();
      try {
        stop.get(pause, TimeUnit.NANOSECONDS);
      } catch (TimeoutException keepWorking) {
        continue;
      } catch (ExecutionException impossible) {
        throw new IllegalStateException(impossible.getCause());
      }
      if (lost.isDone() && !exitRequested.isDone()) {
        return lostBecause(lost.join());
      }
      lease.close();
      say("RELEASED");
      return EXIT_RELEASED;
    }
  }

  private static int lostBecause(LeaseLost loss) {
    say("LOST " + loss.reason());
    return EXIT_LOST;
  }

  /** Reads commands from standard input on a daemon thread; its end means the parent is gone. */
  private void listenToParent() {
    Thread listener =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  if (line.equals("GO")) {
                    go.countDown();
                  } else if (line.equals("EXIT")) {
                    go.countDown();
                    exitRequested.complete(null);
                  }
                }
              } catch (IOException e) {
                // treated like the end of input
              }
              Runtime.getRuntime().halt(EXIT_ORPHANED);
            },
            "parent-listener");
    listener.setDaemon(true);
    listener.start();
  }

  private static void say(String line) {
    synchronized (OUT) {
      OUT.println(line);
      OUT.flush();
    }
  }
}
