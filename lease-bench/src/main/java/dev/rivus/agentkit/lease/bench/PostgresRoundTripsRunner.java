/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * What one acquire + release cycle of each system in {@link PostgresCycleBenchmark} costs on the
 * wire and on the server's disk: round trips (the PostgreSQL driver's {@code Sync} messages, read
 * from its own log at {@code FINEST}), statements executed ({@code Execute} messages and {@code
 * SimpleQuery} ones such as {@code BEGIN}), WAL flushes ({@code pg_stat_wal.wal_sync}) and commits
 * ({@code pg_stat_database.xact_commit} of the current database). The server's counters are global,
 * so other sessions' work shows in them; run it on a quiet server, and read them as "about". The
 * driver logs every message, so the cycles run slowly here: this counts, it does not time.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar \
 *     dev.rivus.agentkit.lease.bench.PostgresRoundTripsRunner 1000
 * </pre>
 *
 * <p>Arguments: the number of cycles counted per system (default 1,000), then optionally the
 * systems (default all of {@link PostgresCycleBenchmark}'s).
 */
public final class PostgresRoundTripsRunner {

  private static final List<String> SYSTEMS =
      List.of("lease", "floor", "floor-set-local", "shedlock", "spring-integration");

  private PostgresRoundTripsRunner() {}

  /**
   * Counts and prints a Markdown table.
   *
   * @param args the number of cycles, then optionally systems
   * @throws Exception if a system fails
   */
  public static void main(String[] args) throws Exception {
    int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    List<String> systems = args.length > 1 ? List.of(args).subList(1, args.length) : SYSTEMS;
    Messages messages = new Messages();
    Logger driver = Logger.getLogger("org.postgresql");
    driver.setUseParentHandlers(false);
    driver.addHandler(messages);
    driver.setLevel(Level.FINEST);
    System.out.println(
        "| system | round trips | statements | WAL flushes (about) | commits (about) |");
    System.out.println("|---|---|---|---|---|");
    try (Connection stats = JdbcServers.POSTGRESQL.connect()) {
      for (String system : systems) {
        try (CycleContender contender = CycleContender.open(system, JdbcServers.POSTGRESQL);
            CycleContender.Cycle cycle = contender.forThread(0)) {
          for (int i = 0; i < 200; i++) {
            cycle.run();
          }
          settle(cycle);
          long[] before = serverCounters(stats);
          messages.start();
          for (int i = 0; i < cycles; i++) {
            cycle.run();
          }
          Map<String, Integer> counted = messages.stop();
          settle(cycle);
          long[] after = serverCounters(stats);
          // settle() ran one more cycle after the count: take it off the server's counters.
          double n = cycles;
          System.out.printf(
              Locale.ROOT,
              "| %s | %.2f | %.2f | %.2f | %.2f |%n",
              system,
              counted.getOrDefault("Sync", 0) / n,
              (counted.getOrDefault("Execute", 0) + counted.getOrDefault("SimpleQuery", 0)) / n,
              (after[0] - before[0]) / (n + 1),
              (after[1] - before[1]) / (n + 1));
        }
      }
    }
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

  private static long[] serverCounters(Connection stats) throws SQLException {
    try (Statement statement = stats.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT (SELECT wal_sync FROM pg_stat_wal), (SELECT xact_commit FROM"
                    + " pg_stat_database WHERE datname = current_database())")) {
      row.next();
      return new long[] {row.getLong(1), row.getLong(2)};
    }
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
