/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The saver a child JVM runs when tests race read-compare-write cycles from several processes on
 * one key, as {@code LeaseRepositoryContract} races threads of one process: it opens a repository
 * through a {@link RepositoryFactory}, waits for {@code GO}, and then its threads save over the
 * record for a while (alternately a renewal and a new generation, each under a holder of its own).
 * The parent seeds the record first and afterwards checks that every revision had exactly one
 * winner, across all processes.
 *
 * <p>Arguments, in order: the factory's class name, the spec, the key, the number of threads, and
 * how long they race (an ISO-8601 duration).
 *
 * <p>Standard output: {@code READY <pid>} once the repository is open; after a {@code GO} line on
 * standard input, {@code WON <revision>} for each revision a thread of this process wrote, then
 * {@code DONE wins=<n> raises=<n> conflicts=<n>} and exit code 0; {@code FAILED <what>} and exit
 * code 1 on any failure other than a lost race (a {@code RevisionConflict}). The end of standard
 * input before {@code GO} means the parent is gone: the saver exits at once.
 */
public final class ConcurrentSaversMain {

  private static final PrintStream OUT = System.out;

  private ConcurrentSaversMain() {}

  /**
   * Runs the saver; see the class description. Always ends the JVM.
   *
   * @param args factory class name, spec, key, threads, duration
   */
  public static void main(String[] args) {
    int code;
    try {
      code = run(args);
    } catch (Exception | Error e) {
      e.printStackTrace();
      OUT.println("FAILED " + e);
      code = 1;
    }
    OUT.flush();
    System.exit(code);
  }

  private static int run(String[] args) throws Exception {
    if (args.length != 5) {
      OUT.println("FAILED usage: FACTORY SPEC KEY THREADS DURATION");
      return 2;
    }
    int threads = Integer.parseInt(args[3]);
    Duration duration = Duration.parse(args[4]);
    long pid = ProcessHandle.current().pid();
    try (LeaseRepository repository = RepositoryFactory.byClassName(args[0]).open(args[1]);
        Workers workers = new Workers()) {
      OUT.println("READY " + pid);
      OUT.flush();
      if (!awaitGo()) {
        return 5;
      }
      ConcurrentSavers savers =
          new ConcurrentSavers(
              List.of(repository),
              args[2],
              threads,
              duration,
              Duration.ofSeconds(60),
              "saver-" + pid + "-");
      ConcurrentSavers.Outcome outcome = savers.race(workers);
      StringBuilder won = new StringBuilder();
      for (long revision : outcome.revisionsWon()) {
        won.append("WON ").append(revision).append('\n');
      }
      OUT.print(won);
      OUT.println(
          "DONE wins="
              + outcome.revisionsWon().size()
              + " raises="
              + outcome.generationRaisesWon()
              + " conflicts="
              + outcome.conflicts());
      return 0;
    }
  }

  /** Waits for a {@code GO} line; false if standard input ends first. */
  private static boolean awaitGo() throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.equals("GO")) {
        return true;
      }
    }
    return false;
  }
}
