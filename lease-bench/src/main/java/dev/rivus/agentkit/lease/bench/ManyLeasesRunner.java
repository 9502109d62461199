/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.sun.management.OperatingSystemMXBean;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Acquisitions;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.jspecify.annotations.Nullable;

/**
 * Many leases in one process: N acquired with one {@link LeaseManager#acquireAll} (beside, for the
 * smaller counts, N acquired one {@code acquire} at a time), then held for a while with a 2 s
 * heartbeat and a 6 s TTL: the CPU share of this JVM (JIT and GC included) and of the database
 * server (PostgreSQL: the pool's backends, found by {@code application_name}, and every {@code
 * postgres} process; MariaDB: the {@code mariadbd} process), the time of a renewal round at p50 and
 * p99, and the leases lost (must be 0). Not a JMH benchmark: it measures a steady state.
 *
 * <p>Run (from the repository root, on the machine of the server; the figures go to BENCHMARKS.md):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar \
 *     dev.rivus.agentkit.lease.bench.ManyLeasesRunner postgresql 1000,10000,100000 60 10000
 * </pre>
 *
 * <p>Arguments: the store ({@code sqlite}, {@code postgresql} or {@code mariadb}), the counts of
 * leases, the seconds to hold them (default 60), the largest count also acquired one at a time
 * (default 10,000), and how many keys each {@code acquireAll} takes (default all; MariaDB writes
 * acquisitions one by one, so a batch of all would outlast the TTL).
 */
public final class ManyLeasesRunner {

  private static final Duration TTL = Duration.ofSeconds(6);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);
  private static final String POOL = "lease-bench-many";

  private ManyLeasesRunner() {}

  /**
   * Runs the measurement.
   *
   * @param args the store, the counts, the seconds to hold, the largest count acquired one by one
   * @throws Exception if the store cannot be used
   */
  public static void main(String[] args) throws Exception {
    String store = args.length > 0 ? args[0] : "sqlite";
    String[] counts = (args.length > 1 ? args[1] : "1000,10000,100000").split(",");
    Duration hold = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 60);
    int oneByOneMax = args.length > 3 ? Integer.parseInt(args[3]) : 10_000;
    int slice = args.length > 4 ? Integer.parseInt(args[4]) : Integer.MAX_VALUE;
    System.out.println(
        "| store | leases | one by one, s | acquireAll, s | JVM CPU % of one core |"
            + " server CPU %, pool's backends | server CPU %, all server processes |"
            + " machine busy % (2 cores) | round p50 ms | round p99 ms | rounds | lost |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (String count : counts) {
      int leases = Integer.parseInt(count.trim());
      double oneByOne = leases <= oneByOneMax ? oneByOne(store, leases) : Double.NaN;
      run(store, leases, hold, oneByOne, slice);
    }
  }

  /** Seconds to acquire {@code leases} one at a time, on a fresh store. */
  private static double oneByOne(String store, int leases) throws Exception {
    try (Store opened = Store.open(store)) {
      try (LeaseManager manager =
          LeaseManager.builder(opened.repository).ttl(TTL).heartbeat(HEARTBEAT).build()) {
        long start = System.nanoTime();
        for (int i = 0; i < leases; i++) {
          manager.acquire("many/" + i);
        }
        return (System.nanoTime() - start) / 1e9;
      }
    }
  }

  private static void run(String store, int leases, Duration hold, double oneByOne, int slice)
      throws Exception {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Counting events = new Counting();
    try (Store opened = Store.open(store)) {
      TimedRounds timed = new TimedRounds(opened.repository);
      List<String> keys = new ArrayList<>(leases);
      for (int i = 0; i < leases; i++) {
        keys.add("many/" + i);
      }
      try (LeaseManager manager =
          LeaseManager.builder(timed).ttl(TTL).heartbeat(HEARTBEAT).listener(events).build()) {
        long acquireStart = System.nanoTime();
        List<Lease> held = new ArrayList<>(leases);
        for (int from = 0; from < leases; from += slice) {
          Acquisitions acquired =
              manager.acquireAll(keys.subList(from, (int) Math.min(leases, (long) from + slice)));
          if (!acquired.acquiredAll()) {
            throw new IllegalStateException(
                "not all acquired: " + acquired.held().size() + " held, " + acquired.failed());
          }
          held.addAll(acquired.acquired());
        }
        double acquiredIn = (System.nanoTime() - acquireStart) / 1e9;
        Set<Long> backends = opened.backends();
        timed.reset();
        ProcessCpu serverBefore = ProcessCpu.of(opened.serverCommand());
        long jvmBefore = os.getProcessCpuTime();
        long wallStart = System.nanoTime();
        Thread.sleep(hold.toMillis());
        double wall = (System.nanoTime() - wallStart) / 1e9;
        double jvm = (os.getProcessCpuTime() - jvmBefore) / 1e9;
        ProcessCpu serverAfter = ProcessCpu.of(opened.serverCommand());
        long stillHeld = held.stream().filter(Lease::isHeld).count();
        boolean hasServer = !store.equals("sqlite");
        System.out.printf(
            Locale.ROOT,
            "| %s | %,d | %s | %.2f | %.1f | %s | %s | %.0f | %.1f | %.1f | %d | %d |%n",
            store,
            leases,
            Double.isNaN(oneByOne) ? "–" : String.format(Locale.ROOT, "%.2f", oneByOne),
            acquiredIn,
            jvm / wall * 100,
            backends.isEmpty()
                ? "–"
                : String.format(
                    Locale.ROOT,
                    "%.1f",
                    serverAfter.secondsSince(serverBefore, backends) / wall * 100),
            hasServer
                ? String.format(
                    Locale.ROOT, "%.1f", serverAfter.secondsSince(serverBefore, null) / wall * 100)
                : "–",
            serverAfter.machineBusySince(serverBefore) * 100,
            timed.percentileMillis(50),
            timed.percentileMillis(99),
            timed.rounds(),
            Math.max(leases - stillHeld, events.lost.get()));
      }
    }
  }

  /** A fresh store of one kind, deleted or dropped when closed. */
  private static final class Store implements AutoCloseable {
    final LeaseRepository repository;
    private final @Nullable Path dir;
    private final @Nullable HikariDataSource pool;
    private final @Nullable JdbcServers server;
    private final String table;

    private Store(
        LeaseRepository repository,
        @Nullable Path dir,
        @Nullable HikariDataSource pool,
        @Nullable JdbcServers server,
        String table) {
      this.repository = repository;
      this.dir = dir;
      this.pool = pool;
      this.server = server;
      this.table = table;
    }

    static Store open(String kind) throws Exception {
      if (kind.equals("sqlite")) {
        Path dir = Files.createTempDirectory("lease-bench-many");
        return new Store(SqliteLeaseRepository.open(dir.resolve("leases.db")), dir, null, null, "");
      }
      JdbcServers server = kind.equals("mariadb") ? JdbcServers.MARIADB : JdbcServers.POSTGRESQL;
      String table = JdbcServers.freshTable("many");
      HikariDataSource pool = server.pool(POOL);
      JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(
              pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
      return new Store(repository, null, pool, server, table);
    }

    String serverCommand() {
      return server == JdbcServers.MARIADB ? "mariadbd" : "postgres";
    }

    /** The PostgreSQL backends serving the pool's connections; empty for the other stores. */
    Set<Long> backends() throws Exception {
      Set<Long> pids = new HashSet<>();
      if (pool == null || server != JdbcServers.POSTGRESQL) {
        return pids;
      }
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

    @Override
    public void close() throws Exception {
      repository.close();
      if (pool != null) {
        pool.close();
      }
      if (server != null) {
        server.drop(table);
      }
      if (dir != null) {
        TempDirs.delete(dir);
      }
    }
  }

  /** Counts losses. */
  private static final class Counting implements LeaseListener {
    final AtomicLong lost = new AtomicLong();

    @Override
    public void lost(LeaseEvent.Lost event) {
      lost.incrementAndGet();
    }
  }
}
