/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * What one acquire + release cycle of each system in {@link JdbcCycleBenchmark} costs on the wire
 * and on the server's disk.
 *
 * <p>PostgreSQL: round trips (the driver's {@code Sync} messages, read from its own log at {@code
 * FINEST}), statements ({@code Execute} messages, and {@code SimpleQuery} ones such as {@code
 * BEGIN}), WAL flushes ({@code pg_stat_wal.wal_sync}) and commits ({@code
 * pg_stat_database.xact_commit} of the current database). MariaDB: statements ({@code Questions};
 * the driver sends each as one text query, so they are also the round trips; a {@code CALL} counts
 * once, not the statements its procedure runs), redo log writes ({@code Innodb_log_writes}: with
 * {@code O_DIRECT} and no log file buffering, each is written through, and a durable commit waits
 * for one) and commits ({@code Com_commit}, explicit ones only, those of a procedure included).
 * {@code lease-statements} is ours on tables without the acquisition procedure. The servers'
 * counters are global, so other sessions' work shows in them: run it on a quiet server, and read
 * them as "about". The driver's log slows the cycles down, so the same number of cycles is then
 * timed again without it: the mean wall time, this thread's CPU time and the server's CPU time per
 * cycle (rough on a shared machine, where the CPU time of a call grows with the load).
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar \
 *     dev.rivus.agentkit.lease.bench.JdbcRoundTripsRunner 1000
 * </pre>
 *
 * <p>Arguments: the number of cycles counted per system (default 1,000), then optionally {@code
 * postgresql} or {@code mariadb} to count on one server only.
 */
public final class JdbcRoundTripsRunner {

  private static final List<String> POSTGRES_SYSTEMS =
      List.of("lease", "floor", "floor-set-local", "shedlock", "spring-integration");
  private static final List<String> MARIADB_SYSTEMS = List.of("lease", "floor", "lease-statements");

  private JdbcRoundTripsRunner() {}

  /**
   * Counts and prints a Markdown table.
   *
   * @param args the number of cycles, then optionally one server
   * @throws Exception if a system fails
   */
  public static void main(String[] args) throws Exception {
    int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    String only = args.length > 1 ? args[1] : "all";
    Messages messages = new Messages();
    Logger driver = Logger.getLogger("org.postgresql");
    driver.setUseParentHandlers(false);
    driver.addHandler(messages);
    driver.setLevel(Level.FINEST);
    System.out.println(
        "| server | system | round trips | statements | log flushes or writes (about) |"
            + " commits (about) | wall µs (mean) | client CPU µs | server CPU µs |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    if (!only.equals("mariadb")) {
      for (String system : POSTGRES_SYSTEMS) {
        count(JdbcServers.POSTGRESQL, system, cycles, messages);
      }
    }
    if (!only.equals("postgresql")) {
      for (String system : MARIADB_SYSTEMS) {
        count(JdbcServers.MARIADB, system, cycles, messages);
      }
    }
  }

  private static void count(JdbcServers server, String system, int cycles, Messages messages)
      throws Exception {
    try (Connection stats = server.connect();
        CycleContender contender = CycleContender.open(system, server);
        CycleContender.Cycle cycle = contender.forThread(0)) {
      for (int i = 0; i < 200; i++) {
        cycle.run();
      }
      settle(cycle);
      long[] before = serverCounters(server, stats);
      messages.start();
      for (int i = 0; i < cycles; i++) {
        cycle.run();
      }
      Map<String, Integer> counted = messages.stop();
      settle(cycle);
      long[] after = serverCounters(server, stats);
      // settle() ran one more cycle after the count, in the servers' counters.
      double n = cycles;
      double perCycle = n + 1;
      String costs = costs(server, system, cycle, cycles);
      if (server == JdbcServers.POSTGRESQL) {
        System.out.printf(
            Locale.ROOT,
            "| PostgreSQL | %s | %.2f | %.2f | %.2f | %.2f | %s |%n",
            system,
            counted.getOrDefault("Sync", 0) / n,
            (counted.getOrDefault("Execute", 0) + counted.getOrDefault("SimpleQuery", 0)) / n,
            (after[0] - before[0]) / perCycle,
            (after[1] - before[1]) / perCycle,
            costs);
      } else {
        // Questions also counts the one SHOW GLOBAL STATUS of the first snapshot.
        double statements = (after[2] - before[2] - 1) / perCycle;
        System.out.printf(
            Locale.ROOT,
            "| MariaDB | %s | %.2f | %.2f | %.2f | %.2f | %s |%n",
            system,
            statements,
            statements,
            (after[0] - before[0]) / perCycle,
            (after[1] - before[1]) / perCycle,
            costs);
      }
    }
  }

  /**
   * Times the cycles again without the driver's log (after as many again to warm up): wall time,
   * this thread's CPU time (the driver works on the calling thread), and the server's: on
   * PostgreSQL the backends of the system's connections (by {@code application_name}), on MariaDB
   * the whole {@code mariadbd} process (other clients included).
   */
  private static String costs(
      JdbcServers server, String system, CycleContender.Cycle cycle, int cycles) throws Exception {
    Logger driver = Logger.getLogger("org.postgresql");
    driver.setLevel(Level.INFO);
    for (int i = 0; i < cycles; i++) {
      cycle.run();
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    @Nullable Set<Long> backends = null;
    String comm = "mariadbd";
    if (server == JdbcServers.POSTGRESQL) {
      comm = "postgres";
      backends = backends(applicationName(system));
    }
    ProcessCpu serverBefore = ProcessCpu.of(comm);
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long wallBefore = System.nanoTime();
    for (int i = 0; i < cycles; i++) {
      cycle.run();
    }
    long wall = System.nanoTime() - wallBefore;
    long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
    double serverSeconds = ProcessCpu.of(comm).secondsSince(serverBefore, backends);
    driver.setLevel(Level.FINEST);
    return String.format(
        Locale.ROOT,
        "%.0f | %.0f | %.0f",
        wall / 1e3 / cycles,
        cpu / 1e3 / cycles,
        serverSeconds * 1e6 / cycles);
  }

  /** The {@code application_name} of a system's connections (see the contenders). */
  private static String applicationName(String system) {
    if (system.startsWith("floor")) {
      return "lease-bench-floor";
    }
    return system.equals("spring-integration") ? "lease-bench-spring" : "lease-bench-" + system;
  }

  private static Set<Long> backends(String applicationName) throws SQLException {
    Set<Long> pids = new HashSet<>();
    try (Connection connection = JdbcServers.POSTGRESQL.connect();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE application_name = ?")) {
      select.setString(1, applicationName);
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          pids.add(row.getLong(1));
        }
      }
    }
    return pids;
  }

  /**
   * Lets the server publish its statistics (a backend flushes them at most once a second, when
   * idle), then runs one cycle so that the connection's pending counters are sent.
   */
  private static void settle(CycleContender.Cycle cycle) throws Exception {
    Thread.sleep(1100);
    cycle.run();
    Thread.sleep(300);
  }

  /** Log flushes or writes, commits and (MariaDB) statements so far, server-wide. */
  private static long[] serverCounters(JdbcServers server, Connection stats) throws SQLException {
    if (server == JdbcServers.POSTGRESQL) {
      try (Statement statement = stats.createStatement();
          ResultSet row =
              statement.executeQuery(
                  "SELECT (SELECT wal_sync FROM pg_stat_wal), (SELECT xact_commit FROM"
                      + " pg_stat_database WHERE datname = current_database())")) {
        row.next();
        return new long[] {row.getLong(1), row.getLong(2), 0};
      }
    }
    Map<String, Long> status = new TreeMap<>();
    try (Statement statement = stats.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SHOW GLOBAL STATUS WHERE Variable_name IN"
                    + " ('Innodb_log_writes', 'Com_commit', 'Questions')")) {
      while (row.next()) {
        status.put(row.getString(1), row.getLong(2));
      }
    }
    return new long[] {
      status.getOrDefault("Innodb_log_writes", 0L),
      status.getOrDefault("Com_commit", 0L),
      status.getOrDefault("Questions", 0L)
    };
  }

  /** Counts the driver's front-end messages ({@code FE=> Name(...)}) while started. */
  private static final class Messages extends Handler {
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private volatile boolean counting;

    void start() {
      counts.clear();
      counting = true;
    }

    Map<String, Integer> stop() {
      counting = false;
      return new TreeMap<>(counts);
    }

    @Override
    public void publish(LogRecord record) {
      @Nullable String message = record.getMessage();
      if (!counting || message == null) {
        return;
      }
      String trimmed = message.trim();
      if (trimmed.startsWith("FE=> ")) {
        String name = trimmed.substring(5).split("[( ]", 2)[0];
        counts.merge(name, 1, Integer::sum);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
