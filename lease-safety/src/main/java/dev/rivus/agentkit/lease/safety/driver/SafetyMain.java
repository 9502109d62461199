/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import dev.rivus.agentkit.lease.safety.check.Totals;
import dev.rivus.agentkit.lease.safety.check.Verdict;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The harness's driver and entry point:
 *
 * <pre>{@code
 * java -cp 'lease-safety/target/lease-safety-0.1.0-SNAPSHOT.jar:lease-safety/target/lib/*' \
 *     dev.rivus.agentkit.lease.safety.driver.SafetyMain --repository all --seconds 60 [--seed S]
 * }</pre>
 *
 * <p>Runs one phase per repository ({@code file}, {@code sqlite}, {@code postgres}, {@code
 * mariadb}, {@code postgres-restart} and {@code mariadb-restart} on private servers it restarts, or
 * {@code all} of them; a database whose server does not answer is SKIPPED, never passed, and fails
 * the run under {@code CI=true}), then the negative control (a broken repository, fencing off at
 * the resource), prints each phase's report and exits 0 only if every phase passed: no violation
 * and enough activity, and for the negative control, violations found (2 if the phases that ran
 * passed but some were skipped). Options: {@code --workers N} (4), {@code --out DIR} (a new
 * temporary directory; the logs stay there), {@code --no-negative-control}, {@code --no-tmpfs} (no
 * tmpfs on the store, as where the driver cannot mount one: a full disk is injected with {@code
 * strace}), {@code --no-fencing} (files and SQLite only: the resource checks no token, and no
 * storage fault loses the store, so that every stale write the library lets through is a violation;
 * the unmutated library passes so, {@link MutantMain}'s control), {@code --expect-violations}
 * (every phase passes only if the checker finds violations, as the negative control: a mutant's
 * run).
 *
 * <p>Its methods run the phases on the calling thread, one after another; one run at a time.
 */
public final class SafetyMain {

  private SafetyMain() {}

  /**
   * Runs the harness and exits with 0 (every phase passed), 2 (those that ran passed, some were
   * skipped: their server did not answer), 1 (a phase failed or did too little) or 64 (bad
   * arguments).
   *
   * @param args the options
   * @throws IOException if the run's directory cannot be made
   * @throws InterruptedException if interrupted
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    List<Phase> phases;
    Path out;
    Minimum minimum;
    try {
      Options options = Options.parse(args);
      phases = options.phases();
      minimum = new Minimum(options.minFencedOperations, options.minFaults);
      out = options.common.logDirectory("lease-safety");
    } catch (IllegalArgumentException bad) {
      System.err.println("safety: " + bad.getMessage());
      System.exit(64);
      return;
    }
    Summary summary = runAll(phases, out, System.out, minimum);
    System.exit(!summary.passed() ? 1 : summary.skipped().isEmpty() ? 0 : 2);
  }

  /**
   * Runs phases one after another and prints their reports.
   *
   * @param phases the phases
   * @param out the run's directory (one subdirectory per phase)
   * @param report where the reports go
   * @return whether every phase passed
   * @throws IOException if a phase's directory cannot be made
   * @throws InterruptedException if interrupted
   */
  public static boolean run(List<Phase> phases, Path out, PrintStream report)
      throws IOException, InterruptedException {
    return runAll(phases, out, report).passed();
  }

  /**
   * How a run ended.
   *
   * @param passed whether every phase that ran passed (and none was required and missing)
   * @param skipped the phases not run because their server did not answer: never passes
   */
  public record Summary(boolean passed, List<String> skipped) {}

  /**
   * Runs phases one after another, prints their reports, and tells which were skipped.
   *
   * @param phases the phases
   * @param out the run's directory (one subdirectory per phase)
   * @param report where the reports go
   * @return whether every phase that ran passed, and which were skipped
   * @throws IOException if a phase's directory cannot be made
   * @throws InterruptedException if interrupted
   */
  public static Summary runAll(List<Phase> phases, Path out, PrintStream report)
      throws IOException, InterruptedException {
    return runAll(phases, out, report, Minimum.NONE);
  }

  /**
   * What a whole run must have done to count, across its phases (the negative control apart).
   *
   * @param fencedOperations writes to the resource inside fenced sections, accepted or rejected,
   *     and fenced transactions committed
   * @param faults faults injected
   */
  public record Minimum(int fencedOperations, int faults) {
    /** No minimum beyond each phase's own. */
    public static final Minimum NONE = new Minimum(0, 0);
  }

  /**
   * Runs phases one after another, prints their reports, and tells which were skipped; a run that
   * did less than {@code minimum} in total fails.
   *
   * @param phases the phases
   * @param out the run's directory (one subdirectory per phase)
   * @param report where the reports go
   * @param minimum what the whole run must have done
   * @return whether every phase that ran passed and the run did enough, and which were skipped
   * @throws IOException if a phase's directory cannot be made
   * @throws InterruptedException if interrupted
   */
  public static Summary runAll(List<Phase> phases, Path out, PrintStream report, Minimum minimum)
      throws IOException, InterruptedException {
    boolean passed = true;
    List<String> skipped = new ArrayList<>();
    Totals totals = new Totals();
    report.println("lease safety harness: logs in " + out);
    for (Phase phase : phases) {
      report.printf(
          "== %s: %s, fencing %s, %d workers, %d s, seed %d ==%n",
          phase.label(),
          phase.store().label(),
          phase.fencing() ? "on" : "off",
          phase.workers(),
          phase.duration().toSeconds(),
          phase.seed());
      Verdict verdict = PhaseRunner.run(phase, out);
      verdict.report().forEach(report::println);
      totals.add(phase, verdict);
      if (verdict.outcome() == Verdict.Outcome.SKIPPED) {
        skipped.add(phase.label());
      } else {
        passed &= verdict.outcome() == Verdict.Outcome.PASS;
      }
    }
    totals.report().forEach(report::println);
    if (totals.fencedOperations() < minimum.fencedOperations()
        || totals.faultsInjected() < minimum.faults()) {
      report.printf(
          "INSUFFICIENT IN TOTAL: %d fenced operations and %d faults, at least %d and %d wanted%n",
          totals.fencedOperations(),
          totals.faultsInjected(),
          minimum.fencedOperations(),
          minimum.faults());
      passed = false;
    }
    if (!passed) {
      report.println("SOME PHASE FAILED" + (skipped.isEmpty() ? "" : "; SKIPPED: " + skipped));
    } else if (!skipped.isEmpty()) {
      // A skipped phase is never a pass: the summary names it, as lease-jdbc's skipped tests.
      report.println("NO PHASE FAILED, BUT SKIPPED (server unreachable): " + skipped);
    } else {
      report.println("ALL PHASES PASSED");
    }
    return new Summary(passed, List.copyOf(skipped));
  }

  /** The command line, parsed. */
  @Command(name = "SafetyMain", sortOptions = false)
  private static final class Options {
    @Option(
        names = "--repository",
        paramLabel = "file|sqlite|postgres|mariadb|postgres-restart|mariadb-restart|all")
    String repository = "all";

    @Option(names = "--seconds", paramLabel = "N", converter = PositiveInteger.class)
    int seconds = 60;

    @Mixin DriverArguments common = new DriverArguments();

    @Option(names = "--no-negative-control")
    boolean noNegativeControl;

    @Option(names = "--no-tmpfs")
    boolean noTmpfs;

    @Option(names = "--no-fencing")
    boolean noFencing;

    @Option(names = "--expect-violations")
    boolean expectViolations;

    @Option(names = "--min-fenced-operations", paramLabel = "N", converter = PositiveInteger.class)
    int minFencedOperations;

    @Option(names = "--min-faults", paramLabel = "N", converter = PositiveInteger.class)
    int minFaults;

    /**
     * Parses the options.
     *
     * @throws IllegalArgumentException saying what is wrong, then how to call the driver
     */
    static Options parse(String[] args) {
      Options options = DriverArguments.parse(new Options(), args);
      if (!options.repository.matches(
          "file|sqlite|postgres|mariadb|postgres-restart|mariadb-restart|all")) {
        throw new IllegalArgumentException(
            "--repository is file, sqlite, postgres, mariadb, postgres-restart, mariadb-restart or all,"
                + " not "
                + options.repository);
      }
      if (options.noTmpfs) {
        // As where the driver cannot mount one: a full disk is then injected with strace.
        System.setProperty(StorageFaults.NO_TMPFS_PROPERTY, "true");
      }
      if (options.noFencing && !options.repository.matches("file|sqlite")) {
        // On a database a key lock can be lost with its session, and then only the token at the
        // resource protects it (docs/safety.md): without that check the real library fails too.
        throw new IllegalArgumentException(
            "--no-fencing is for --repository file or sqlite, not " + options.repository);
      }
      return options;
    }

    List<Phase> phases() {
      List<Phase> phases = new ArrayList<>();
      Duration duration = Duration.ofSeconds(seconds);
      for (StoreKind store :
          List.of(
              StoreKind.FILE,
              StoreKind.SQLITE,
              StoreKind.POSTGRES,
              StoreKind.MARIADB,
              StoreKind.POSTGRES_RESTART,
              StoreKind.MARIADB_RESTART)) {
        if (repository.equals("all") || repository.equals(store.label())) {
          phases.add(
              new Phase(
                  store.label(),
                  store,
                  !noFencing,
                  duration,
                  common.workers,
                  common.seed + phases.size(),
                  expectViolations));
        }
      }
      if (!noNegativeControl) {
        Duration control =
            duration.compareTo(Duration.ofSeconds(20)) > 0 ? Duration.ofSeconds(20) : duration;
        phases.add(
            new Phase(
                "negative-control",
                StoreKind.BROKEN,
                false,
                control,
                common.workers,
                common.seed + phases.size(),
                true));
      }
      return phases;
    }
  }
}
