/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the time of one acquire + release of our library on PostgreSQL goes, step by step, beside
 * the raw floor's two writes: the repository calls the manager makes (timed by a forwarding
 * repository: {@code load}, which the manager makes only when it did not write the key's tombstone
 * itself, the acquisition's {@code save}, the release's {@code save}) and the rest of the cycle
 * (the manager's own work), interleaved cycle by cycle with the floor's durable and asynchronous
 * {@code UPDATE}s (see {@link RawFloorContender}), one thread, so that both see the same machine.
 * Prints a Markdown table of p50 and mean per step.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar \
 *     dev.rivus.agentkit.lease.bench.PostgresCycleStepsRunner 60
 * </pre>
 *
 * <p>Argument: the seconds measured (default 60), after 10 s of warm-up.
 */
public final class PostgresCycleStepsRunner {

  private PostgresCycleStepsRunner() {}

  /**
   * Runs the measurement and prints the table.
   *
   * @param args the seconds measured
   * @throws Exception if a system fails
   */
  public static void main(String[] args) throws Exception {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
    JdbcServers server = JdbcServers.POSTGRESQL;
    String table = JdbcServers.freshTable("steps");
    try (HikariDataSource pool = server.pool("lease-bench-lease");
        RawFloorContender floor =
            new RawFloorContender(server, RawFloorContender.Release.ONE_STATEMENT)) {
      Steps lease =
          new Steps(
              JdbcLeaseRepository.open(
                  pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build()));
      RawFloorContender.Steps floorSteps = new RawFloorContender.Steps();
      try (LeaseManager manager = LeaseManager.builder(lease).build();
          CycleContender.Cycle raw = floor.forThread(0, floorSteps)) {
        runFor(10, manager, raw);
        lease.reset();
        floorSteps.reset();
        Latencies leaseCycles = new Latencies();
        Latencies floorCycles = new Latencies();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
          long start = System.nanoTime();
          try (Lease held = manager.acquire("bench/0")) {
            held.generation();
          }
          long middle = System.nanoTime();
          raw.run();
          floorCycles.add(System.nanoTime() - middle);
          leaseCycles.add(middle - start);
        }
        System.out.println("| step | p50 µs | mean µs |");
        System.out.println("|---|---|---|");
        row("lease: whole cycle", leaseCycles);
        // The manager reads the record only when it did not write the tombstone itself.
        System.out.printf(
            Locale.ROOT,
            "| lease: load (SELECT), made in %d of %d cycles | %s | %s |%n",
            lease.load.size(),
            leaseCycles.size(),
            micros(lease.load.percentile(50)),
            micros(lease.load.mean()));
        row("lease: acquisition save (generation row + record, one statement)", lease.acquire);
        row("lease: release save (UPDATE, synchronous_commit off)", lease.release);
        System.out.printf(
            Locale.ROOT,
            "| lease: the rest (manager, handle), from the means | | %.0f |%n",
            (leaseCycles.mean()
                    - total(lease.load) / leaseCycles.size()
                    - lease.acquire.mean()
                    - lease.release.mean())
                / 1e3);
        row("floor: whole cycle", floorCycles);
        row("floor: durable UPDATE", floorSteps.acquire);
        row("floor: asynchronous UPDATE", floorSteps.release);
      }
    } finally {
      server.drop(table);
    }
  }

  private static String micros(double nanos) {
    return Double.isNaN(nanos) ? "–" : String.format(Locale.ROOT, "%.0f", nanos / 1e3);
  }

  private static double total(Latencies latencies) {
    return latencies.size() == 0 ? 0 : latencies.mean() * latencies.size();
  }

  private static void runFor(long seconds, LeaseManager manager, CycleContender.Cycle raw)
      throws Exception {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      try (Lease held = manager.acquire("bench/0")) {
        held.generation();
      }
      raw.run();
    }
  }

  private static void row(String step, Latencies latencies) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %.0f | %.0f |%n",
        step,
        latencies.percentile(50) / 1e3,
        latencies.mean() / 1e3);
  }

  /** Times the repository calls of a cycle; used by one thread. */
  private static final class Steps extends ForwardingLeaseRepository {
    Latencies load = new Latencies();
    Latencies acquire = new Latencies();
    Latencies release = new Latencies();

    Steps(LeaseRepository delegate) {
      super(delegate);
    }

    void reset() {
      load = new Latencies();
      acquire = new Latencies();
      release = new Latencies();
    }

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      long start = System.nanoTime();
      try {
        return delegate().load(key);
      } finally {
        load.add(System.nanoTime() - start);
      }
    }

    @Override
    public void save(LeaseWrite write) {
      long start = System.nanoTime();
      try {
        delegate().save(write);
      } finally {
        (write.raisesGeneration() ? acquire : release).add(System.nanoTime() - start);
      }
    }

    // The manager releases through saveAll: timed as the repository's own batch, which it uses.
    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      long start = System.nanoTime();
      try {
        return delegate().saveAll(writes);
      } finally {
        boolean raises = writes.stream().anyMatch(LeaseWrite::raisesGeneration);
        (raises ? acquire : release).add(System.nanoTime() - start);
      }
    }
  }
}
