/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The systems of {@link JdbcCycleBenchmark} measured side by side in one process: all are set up at
 * once, and the benchmark threads take turns on them in short slices (every thread on the same
 * system in a slice), round after round, so that the drift of a shared machine (other builds, a
 * disk whose flushes slow down for a minute) falls on every system alike. JMH runs one benchmark
 * after another, tens of seconds apart; on a machine whose speed changes by a factor of two from
 * minute to minute that moves the ratios more than the differences measured. Prints Markdown tables
 * for BENCHMARKS.md: cycles/s (cycles in a system's slices over the wall time of its slices), p50
 * and p99 of a cycle, and the ratios, over the whole run and, for their spread, over each sixth of
 * it.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar dev.rivus.agentkit.lease.bench.JdbcCycleRunner 60
 * </pre>
 *
 * <p>Arguments: the seconds measured per server and thread count (default 60, after 10 s of
 * warm-up), then optionally {@code postgresql} or {@code mariadb} for one server only. Slices are
 * 500 ms. Servers: {@code LEASE_BENCH_POSTGRES_URL}, {@code LEASE_BENCH_MARIADB_URL}. {@link
 * PeersCycleRunner} runs the PostgreSQL systems beside Redisson's locks on Redis, through {@link
 * #run(String, List, CycleContender.Opener, long)}.
 */
public final class JdbcCycleRunner {

  /** The systems measured on PostgreSQL, in {@link JdbcCycleBenchmark} too. */
  static final List<String> POSTGRES_SYSTEMS =
      List.of("lease", "floor", "floor-set-local", "shedlock", "spring-integration");

  /**
   * The systems measured on MariaDB, in {@link JdbcCycleBenchmark} too: {@code lease-statements} is
   * ours on tables without the acquisition procedure.
   */
  static final List<String> MARIADB_SYSTEMS = List.of("lease", "floor", "lease-statements");

  private static final int[] THREADS = {1, 2};
  private static final long SLICE_NANOS = 500_000_000L;
  private static final long WARM_UP_NANOS = 10_000_000_000L;
  private static final int BLOCKS = 6;

  private JdbcCycleRunner() {}

  /**
   * Runs the measurement and prints the tables.
   *
   * @param args the seconds per server and thread count, then optionally one server
   * @throws Exception if a system fails
   */
  public static void main(String[] args) throws Exception {
    long measureNanos = (args.length > 0 ? Long.parseLong(args[0]) : 60) * 1_000_000_000L;
    String only = args.length > 1 ? args[1] : "all";
    if (!only.equals("mariadb")) {
      run(JdbcServers.POSTGRESQL, POSTGRES_SYSTEMS, measureNanos);
    }
    if (!only.equals("postgresql")) {
      run(JdbcServers.MARIADB, MARIADB_SYSTEMS, measureNanos);
    }
  }

  private static void run(JdbcServers server, List<String> systems, long measureNanos)
      throws Exception {
    run(server.displayName(), systems, name -> CycleContender.open(name, server), measureNanos);
  }

  /**
   * Opens the systems, measures them interleaved on 1 and then 2 threads (10 s of warm-up before
   * each) and prints a table of each under {@code title}, then closes them. The first system is
   * ours, to which the ratios refer: a time ratio to a system whose name starts with {@code floor},
   * a throughput ratio to any other.
   *
   * @param title what the tables are headed with (the server or servers)
   * @param systems the systems' names, ours first
   * @param opener opens a system by its name
   * @param measureNanos the time measured per thread count, all systems together
   * @throws Exception if a system cannot be set up or fails
   */
  static void run(
      String title, List<String> systems, CycleContender.Opener opener, long measureNanos)
      throws Exception {
    List<CycleContender> contenders = new ArrayList<>();
    try {
      for (String system : systems) {
        contenders.add(opener.open(system));
      }
      // Each thread's key is prepared once, for the most threads, and the first ones are used.
      int most = Arrays.stream(THREADS).max().orElse(1);
      CycleContender.Cycle[][] cycles = new CycleContender.Cycle[most][systems.size()];
      try {
        for (int t = 0; t < most; t++) {
          for (int s = 0; s < systems.size(); s++) {
            cycles[t][s] = contenders.get(s).forThread(t);
          }
        }
        for (int threads : THREADS) {
          CycleContender.Cycle[][] used = Arrays.copyOf(cycles, threads);
          new Slices(used, systems.size()).run(WARM_UP_NANOS);
          Slices measured = new Slices(used, systems.size());
          measured.run(measureNanos);
          print(title, systems, threads, measured);
        }
      } finally {
        for (CycleContender.Cycle[] row : cycles) {
          for (CycleContender.Cycle cycle : row) {
            if (cycle != null) {
              cycle.close();
            }
          }
        }
      }
    } finally {
      for (CycleContender contender : contenders) {
        contender.close();
      }
    }
  }

  private static void print(String title, List<String> systems, int threads, Slices slices) {
    System.out.printf(Locale.ROOT, "%n%s, %d thread(s):%n%n", title, threads);
    System.out.println("| system | cycles/s | p50 µs | p99 µs | cycles |");
    System.out.println("|---|---|---|---|---|");
    for (int s = 0; s < systems.size(); s++) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %.0f | %.0f | %,d |%n",
          systems.get(s),
          slices.cyclesPerSecond(s, 0, BLOCKS),
          slices.percentileMicros(s, 50),
          slices.percentileMicros(s, 99),
          slices.cycles(s));
    }
    System.out.println();
    System.out.println("| ratio | whole run | each sixth of the run |");
    System.out.println("|---|---|---|");
    for (int s = 1; s < systems.size(); s++) {
      boolean floor = systems.get(s).startsWith("floor");
      String label =
          floor
              ? "lease time / " + systems.get(s) + " time (target ≤ 1.3)"
              : "lease cycles/s / " + systems.get(s) + " cycles/s" + peerNote(systems.get(s));
      List<String> blocks = new ArrayList<>();
      for (int b = 0; b < BLOCKS; b++) {
        blocks.add(String.format(Locale.ROOT, "%.2f", ratio(slices, s, floor, b, b + 1)));
      }
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %s |%n",
          label,
          ratio(slices, s, floor, 0, BLOCKS),
          String.join(" / ", blocks));
    }
  }

  /** What the ratio to a peer is: no target, the floor's is the one. */
  private static String peerNote(String system) {
    if (system.startsWith("redisson")) {
      return " (on Redis)";
    }
    return system.equals("lease-statements") ? " (ours without the procedure)" : "";
  }

  /** Against a floor, how many times slower; against a peer, how many times faster. */
  private static double ratio(Slices slices, int other, boolean floor, int from, int to) {
    double lease = slices.cyclesPerSecond(0, from, to);
    double theirs = slices.cyclesPerSecond(other, from, to);
    return floor ? theirs / lease : lease / theirs;
  }

  /**
   * One measurement: the threads run the systems in turn, a slice each, every thread on the same
   * system; a barrier between slices, whose action books the slice's wall time to its system.
   */
  private static final class Slices {
    private final CycleContender.Cycle[][] cycles;
    private final int systems;
    private final Latencies[][] latencies;
    private final long[][] blockNanos;
    private final long[][] blockCycles;
    private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
    private volatile int current;
    private volatile long sliceEnd;
    private volatile boolean done;
    private long sliceStart;
    private int slice = -1;
    private long runStart;
    private long runNanos;

    Slices(CycleContender.Cycle[][] cycles, int systems) {
      this.cycles = cycles;
      this.systems = systems;
      latencies = new Latencies[cycles.length][systems];
      for (Latencies[] row : latencies) {
        for (int s = 0; s < systems; s++) {
          row[s] = new Latencies();
        }
      }
      blockNanos = new long[systems][BLOCKS];
      blockCycles = new long[systems][BLOCKS];
    }

    void run(long nanos) throws Exception {
      runNanos = nanos;
      CyclicBarrier barrier = new CyclicBarrier(cycles.length, this::nextSlice);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < cycles.length; t++) {
        int thread = t;
        Thread worker = new Thread(() -> work(thread, barrier), "cycle-" + t);
        threads.add(worker);
      }
      runStart = System.nanoTime();
      threads.forEach(Thread::start);
      for (Thread worker : threads) {
        worker.join();
      }
      Throwable failed = failure.get();
      if (failed != null) {
        throw new IllegalStateException("a cycle failed", failed);
      }
    }

    /** The barrier's action: books the slice that ended, and starts the next or ends the run. */
    private void nextSlice() {
      long now = System.nanoTime();
      if (slice >= 0) {
        int block = (int) Math.min(BLOCKS - 1, (sliceStart - runStart) * BLOCKS / runNanos);
        blockNanos[current][block] += now - sliceStart;
      }
      if (now - runStart >= runNanos || failure.get() != null) {
        done = true;
        return;
      }
      slice++;
      current = slice % systems;
      sliceStart = now;
      sliceEnd = now + SLICE_NANOS;
    }

    private void work(int thread, CyclicBarrier barrier) {
      try {
        while (true) {
          barrier.await();
          if (done) {
            return;
          }
          int system = current;
          int block = (int) Math.min(BLOCKS - 1, (sliceStart - runStart) * BLOCKS / runNanos);
          CycleContender.Cycle cycle = cycles[thread][system];
          Latencies recorded = latencies[thread][system];
          long count = 0;
          long start = System.nanoTime();
          while (start < sliceEnd) {
            cycle.run();
            long end = System.nanoTime();
            recorded.add(end - start);
            count++;
            start = end;
          }
          synchronized (blockCycles) {
            blockCycles[system][block] += count;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure.compareAndSet(null, e);
      } catch (BrokenBarrierException e) {
        failure.compareAndSet(null, e);
      } catch (Exception | Error e) {
        failure.compareAndSet(null, e);
        barrier.reset();
      }
    }

    double cyclesPerSecond(int system, int fromBlock, int toBlock) {
      long count = 0;
      long nanos = 0;
      for (int b = fromBlock; b < toBlock; b++) {
        count += blockCycles[system][b];
        nanos += blockNanos[system][b];
      }
      return count * 1e9 / nanos;
    }

    long cycles(int system) {
      return Arrays.stream(blockCycles[system]).sum();
    }

    double percentileMicros(int system, int percentile) {
      Latencies all = new Latencies();
      for (Latencies[] row : latencies) {
        all.addAll(row[system]);
      }
      return all.percentile(percentile) / 1e3;
    }
  }
}
