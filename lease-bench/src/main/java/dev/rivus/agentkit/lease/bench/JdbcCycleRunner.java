/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs {@link PostgresCycleBenchmark} and {@link MariaDbCycleBenchmark} on one thread and on two,
 * in interleaved rounds (each round measures every system once, so the drift of a shared machine
 * falls on all of them alike), and prints the figures and ratios as Markdown tables for
 * BENCHMARKS.md. JMH's own log goes to {@code lease-bench/target/jdbc-cycle-jmh.log}.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar dev.rivus.agentkit.lease.bench.JdbcCycleRunner 3
 * </pre>
 *
 * <p>Arguments: the number of rounds (default 3), then optionally {@code postgresql} or {@code
 * mariadb} to run one server only. Cycles/s are the threads divided by the mean time of a cycle.
 */
public final class JdbcCycleRunner {

  private static final int[] THREADS = {1, 2};

  private JdbcCycleRunner() {}

  /**
   * Runs the rounds and prints the tables.
   *
   * @param args the number of rounds, and optionally one server
   * @throws Exception if a benchmark fails
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    String only = args.length > 1 ? args[1] : "all";
    List<Class<?>> benchmarks = new ArrayList<>();
    if (!only.equals("mariadb")) {
      benchmarks.add(PostgresCycleBenchmark.class);
    }
    if (!only.equals("postgresql")) {
      benchmarks.add(MariaDbCycleBenchmark.class);
    }
    Path log = Path.of("lease-bench", "target", "jdbc-cycle-jmh.log");
    Files.createDirectories(log.getParent());
    // figure name ("PostgreSQL lease, 1 thread") -> one Figure per round
    Map<String, List<Figure>> figures = new LinkedHashMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (int threads : THREADS) {
        for (Class<?> benchmark : benchmarks) {
          Options options =
              new OptionsBuilder()
                  .include(benchmark.getName() + ".acquireAndRelease")
                  .threads(threads)
                  .warmupIterations(2)
                  .warmupTime(TimeValue.seconds(2))
                  .measurementIterations(3)
                  .measurementTime(TimeValue.seconds(3))
                  .forks(1)
                  .shouldFailOnError(true)
                  .output(log.toString())
                  .build();
          for (RunResult result : new Runner(options).run()) {
            BenchmarkParams params = result.getParams();
            Statistics statistics = result.getPrimaryResult().getStatistics();
            String name = server(benchmark) + " " + params.getParam("system") + ", " + threads;
            figures
                .computeIfAbsent(name, k -> new ArrayList<>())
                .add(new Figure(threads, statistics));
            System.out.printf(
                Locale.ROOT,
                "round %d: %s thread(s): %,.0f cycles/s, p50 %.0f µs%n",
                round,
                name,
                figures.get(name).get(figures.get(name).size() - 1).cyclesPerSecond(),
                statistics.getPercentile(50));
          }
        }
      }
    }
    printFigures(figures);
    printRatios(figures);
  }

  private static String server(Class<?> benchmark) {
    return benchmark == PostgresCycleBenchmark.class ? "PostgreSQL" : "MariaDB";
  }

  private static void printFigures(Map<String, List<Figure>> figures) {
    System.out.println();
    System.out.println(
        "| system, threads | cycles/s (median of rounds) | per round | p50 µs | p99 µs |");
    System.out.println("|---|---|---|---|---|");
    figures.forEach(
        (name, rounds) ->
            System.out.printf(
                Locale.ROOT,
                "| %s | %,.0f | %s | %.0f | %.0f |%n",
                name,
                median(rounds, Figure::cyclesPerSecond),
                String.join(
                    " / ",
                    rounds.stream()
                        .map(f -> String.format(Locale.ROOT, "%,.0f", f.cyclesPerSecond()))
                        .toList()),
                median(rounds, Figure::p50),
                median(rounds, Figure::p99)));
  }

  /** Per round, then the median: the library's throughput over each other's. */
  private static void printRatios(Map<String, List<Figure>> figures) {
    System.out.println();
    System.out.println("| ratio, threads | median | per round |");
    System.out.println("|---|---|---|");
    for (String server : List.of("PostgreSQL", "MariaDB")) {
      for (int threads : THREADS) {
        List<Figure> lease = figures.get(server + " lease, " + threads);
        if (lease == null) {
          continue;
        }
        for (String other : List.of("floor", "floor-set-local", "shedlock", "spring-integration")) {
          List<Figure> theirs = figures.get(server + " " + other + ", " + threads);
          if (theirs == null) {
            continue;
          }
          boolean floor = other.startsWith("floor");
          List<Double> ratios = new ArrayList<>();
          for (int i = 0; i < Math.min(lease.size(), theirs.size()); i++) {
            double ours = lease.get(i).cyclesPerSecond();
            double their = theirs.get(i).cyclesPerSecond();
            // Against a floor: how many times slower (time ratio); against a peer: how many times
            // faster (throughput ratio).
            ratios.add(floor ? their / ours : ours / their);
          }
          System.out.printf(
              Locale.ROOT,
              "| %s: %s, %d | %.2f× | %s |%n",
              server,
              floor ? "lease time / " + other + " time" : "lease cycles/s / " + other + " cycles/s",
              threads,
              medianOf(ratios),
              String.join(
                  " / ", ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).toList()));
        }
      }
    }
  }

  private interface Metric {
    double of(Figure figure);
  }

  private static double median(List<Figure> rounds, Metric metric) {
    List<Double> values = new ArrayList<>();
    for (Figure figure : rounds) {
      values.add(metric.of(figure));
    }
    return medianOf(values);
  }

  private static double medianOf(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** One measurement: the cycle's time distribution in µs, and the number of threads. */
  private record Figure(int threads, Statistics statistics) {
    double cyclesPerSecond() {
      return threads * 1e6 / statistics.getMean();
    }

    double p50() {
      return statistics.getPercentile(50);
    }

    double p99() {
      return statistics.getPercentile(99);
    }
  }
}
