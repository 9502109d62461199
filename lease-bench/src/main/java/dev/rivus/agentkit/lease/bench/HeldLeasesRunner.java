/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One process holding N leases on SQLite, renewed every second, for a while: the process's CPU
 * share, the time of a renewal round (one batch) at p50 and p99, the heap each held lease costs,
 * and how many leases were lost (must be 0). The heap per lease is what the process keeps for a
 * held lease (the handle, its record, the manager's bookkeeping), measured after a full collection,
 * including the runner's list of handles (8 bytes each). Not a JMH benchmark: it measures a steady
 * state of minutes, not a call.
 *
 * <p>Run (from the repository root; the figures go to BENCHMARKS.md):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -Xmx2g -cp lease-bench/target/benchmarks.jar dev.rivus.agentkit.lease.bench.HeldLeasesRunner \
 *     1000,10000,100000 60
 * </pre>
 *
 * <p>Arguments: the numbers of leases, comma-separated (each in a fresh database), and the seconds
 * to hold them after all were acquired. TTL 5 s, heartbeat 1 s.
 */
public final class HeldLeasesRunner {

  private static final Duration TTL = Duration.ofSeconds(5);
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);

  private HeldLeasesRunner() {}

  /**
   * Runs the measurement.
   *
   * @param args the numbers of leases, and the seconds to hold them
   * @throws Exception if the database cannot be used
   */
  public static void main(String[] args) throws Exception {
    String[] counts = (args.length > 0 ? args[0] : "1000,10000,100000").split(",");
    long seconds = args.length > 1 ? Long.parseLong(args[1]) : 60;
    System.out.println(
        "| leases | acquired in s | CPU % of one core | round p50 ms | round p99 ms | rounds |"
            + " heap per lease B | lost |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (String count : counts) {
      run(Integer.parseInt(count.trim()), Duration.ofSeconds(seconds));
    }
  }

  private static void run(int leases, Duration hold) throws Exception {
    Path dir = Files.createTempDirectory("lease-bench-held");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (SqliteLeaseRepository sqlite = SqliteLeaseRepository.open(dir.resolve("leases.db"))) {
      TimedRounds timed = new TimedRounds(sqlite);
      long heapBefore = usedHeapAfterGc(memory);
      List<Lease> held = new ArrayList<>(leases);
      try (LeaseManager manager =
          LeaseManager.builder(timed).ttl(TTL).heartbeat(HEARTBEAT).build()) {
        long acquireStart = System.nanoTime();
        for (int i = 0; i < leases; i++) {
          held.add(manager.acquire("held/" + i));
        }
        double acquiredIn = (System.nanoTime() - acquireStart) / 1e9;
        long heapHolding = usedHeapAfterGc(memory);

        timed.reset();
        long cpuStart = os.getProcessCpuTime();
        long wallStart = System.nanoTime();
        Thread.sleep(hold.toMillis());
        double cpu = (os.getProcessCpuTime() - cpuStart) / (double) (System.nanoTime() - wallStart);
        int stillHeld = (int) held.stream().filter(Lease::isHeld).count();

        System.out.printf(
            Locale.ROOT,
            "| %,d | %.1f | %.1f | %.1f | %.1f | %d | %,d | %d |%n",
            leases,
            acquiredIn,
            cpu * 100,
            timed.percentileMillis(50),
            timed.percentileMillis(99),
            timed.rounds(),
            (heapHolding - heapBefore) / leases,
            leases - stillHeld);
        held.clear();
      }
    } finally {
      TempDirs.delete(dir);
    }
  }

  private static long usedHeapAfterGc(MemoryMXBean memory) throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
