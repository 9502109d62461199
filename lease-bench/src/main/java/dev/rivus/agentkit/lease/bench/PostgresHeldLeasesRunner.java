/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.sun.management.OperatingSystemMXBean;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One process holding N leases on PostgreSQL ({@code LEASE_BENCH_POSTGRES_URL}) through a {@link
 * JdbcLeaseRepository} on a HikariCP pool of {@value JdbcServers#POOL_SIZE}, renewed every second,
 * for a while: the CPU share of this JVM (JIT and GC included) and of the server, the time of a
 * renewal round (one {@code saveAll} batch, connection checkout included) at p50 and p99, and the
 * leases lost (must be 0). The server's share is given twice: the pool's own backends (found by
 * {@code application_name} in {@code pg_stat_activity}), and every {@code postgres} process on this
 * machine, background writers and other clients' sessions included; the machine's busy share says
 * how much else ran. Not a JMH benchmark: it measures a steady state, not a call.
 *
 * <p>Run (from the repository root, on the machine of the server; the figures go to BENCHMARKS.md):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar \
 *     dev.rivus.agentkit.lease.bench.PostgresHeldLeasesRunner 10000 60
 * </pre>
 *
 * <p>Arguments: the number of leases (default 10,000) and the seconds to hold them after all were
 * acquired (default 60). TTL 5 s, heartbeat 1 s.
 */
public final class PostgresHeldLeasesRunner {

  private static final Duration TTL = Duration.ofSeconds(5);
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);
  private static final String POOL = "lease-bench-held";

  private PostgresHeldLeasesRunner() {}

  /**
   * Runs the measurement.
   *
   * @param args the number of leases, and the seconds to hold them
   * @throws Exception if the database cannot be used
   */
  public static void main(String[] args) throws Exception {
    int leases = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    Duration hold = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 60);
    JdbcServers server = JdbcServers.POSTGRESQL;
    String table = JdbcServers.freshTable("held");
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Counting events = new Counting();
    try (HikariDataSource pool = server.pool(POOL)) {
      JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(
              pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
      TimedRounds timed = new TimedRounds(repository);
      List<Lease> held = new ArrayList<>(leases);
      try (LeaseManager manager =
          LeaseManager.builder(timed).ttl(TTL).heartbeat(HEARTBEAT).listener(events).build()) {
        long acquireStart = System.nanoTime();
        for (int i = 0; i < leases; i++) {
          held.add(manager.acquire("held/" + i));
        }
        double acquiredIn = (System.nanoTime() - acquireStart) / 1e9;
        Set<Long> backends = backends(pool);

        timed.reset();
        events.reset();
        ProcessCpu serverBefore = ProcessCpu.of("postgres");
        long jvmBefore = os.getProcessCpuTime();
        long wallStart = System.nanoTime();
        Thread.sleep(hold.toMillis());
        double wall = (System.nanoTime() - wallStart) / 1e9;
        double jvm = (os.getProcessCpuTime() - jvmBefore) / 1e9;
        ProcessCpu serverAfter = ProcessCpu.of("postgres");
        int stillHeld = (int) held.stream().filter(Lease::isHeld).count();
        // Released here, one by one, rather than by the manager's close, which gives up waiting
        // after the TTL and would go on after the pool is closed.
        long releaseStart = System.nanoTime();
        held.forEach(Lease::close);
        double releasedIn = (System.nanoTime() - releaseStart) / 1e9;

        System.out.println(
            "| leases | acquired in s | released in s | JVM CPU % of one core | server CPU %, pool's backends |"
                + " server CPU %, all postgres processes | machine busy % (2 cores) |"
                + " round p50 ms | round p99 ms | rounds | lost | renewals failed |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        System.out.printf(
            Locale.ROOT,
            "| %,d | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.1f | %.1f | %d | %d | %d |%n",
            leases,
            acquiredIn,
            releasedIn,
            jvm / wall * 100,
            serverAfter.secondsSince(serverBefore, backends) / wall * 100,
            serverAfter.secondsSince(serverBefore, null) / wall * 100,
            serverAfter.machineBusySince(serverBefore) * 100,
            timed.percentileMillis(50),
            timed.percentileMillis(99),
            timed.rounds(),
            Math.max(leases - stillHeld, events.lost.get()),
            events.renewalsFailed.get());
        held.clear();
      }
    } finally {
      server.drop(table);
    }
  }

  /** The server processes serving the pool's connections. */
  private static Set<Long> backends(HikariDataSource pool) throws Exception {
    Set<Long> pids = new HashSet<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE application_name = ?")) {
      select.setString(1, POOL);
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          pids.add(row.getLong(1));
        }
      }
    }
    return pids;
  }

  /** Counts losses and failed renewals. */
  private static final class Counting implements LeaseListener {
    final AtomicLong lost = new AtomicLong();
    final AtomicLong renewalsFailed = new AtomicLong();

    void reset() {
      renewalsFailed.set(0);
    }

    @Override
    public void lost(LeaseEvent.Lost event) {
      lost.incrementAndGet();
    }

    @Override
    public void renewalFailed(LeaseEvent.RenewalFailed event) {
      renewalsFailed.incrementAndGet();
    }
  }
}
