/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Many processes acquiring one key in a loop on PostgreSQL: each child JVM runs {@code acquire(key,
 * maxWait)}, holds the lease a few milliseconds, closes it, and goes again at once, for a while. It
 * prints how the key was shared (the fewest and most acquisitions of one process, the longest a
 * process waited for one), and what the waiters cost the server: its transactions per second (every
 * statement of ours runs in auto-commit, so one transaction is one statement), those beyond the
 * holders' two per acquisition per waiting process, and the CPU of the children's backends. The
 * children use a database of their own ({@code lease_contention}, made if missing), so that the
 * server's counters of it count nothing else.
 *
 * <p>Run (from the repository root, on the machine of the server):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar \
 *     dev.rivus.agentkit.lease.bench.ContentionRunner 16 30 5
 * </pre>
 *
 * <p>Arguments: the processes (default 16), the seconds they contend (default 30), and the
 * milliseconds each holds the lease (default 5). The server comes from {@code
 * LEASE_BENCH_POSTGRES_URL}, whose database is replaced by {@code lease_contention}.
 */
public final class ContentionRunner {

  private static final String DATABASE = "lease_contention";
  private static final String APPLICATION = "lease-contention";
  private static final String KEY = "contended";

  private ContentionRunner() {}

  /**
   * Runs the measurement, or one child when the first argument is {@code child}.
   *
   * @param args the processes, the seconds, the hold in milliseconds; or {@code child} and its own
   * @throws Exception if the database cannot be used or a child fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args[1], args[2], Duration.ofSeconds(Long.parseLong(args[3])), Long.parseLong(args[4]));
      return;
    }
    int processes = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    Duration contend = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 30);
    long holdMillis = args.length > 2 ? Long.parseLong(args[2]) : 5;
    String url = ownDatabase(JdbcServers.POSTGRESQL.url());
    String table = JdbcServers.freshTable("contention");
    try (HikariDataSource pool = pool(url, 1)) {
      JdbcLeaseRepository.open(
              pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build())
          .close();
    }
    List<ChildJvm> children = new ArrayList<>();
    try {
      for (int i = 0; i < processes; i++) {
        children.add(
            ChildJvm.builder(ContentionRunner.class.getName())
                .args(
                    List.of(
                        "child",
                        url,
                        table,
                        Long.toString(contend.toSeconds()),
                        Long.toString(holdMillis)))
                .start());
      }
      for (ChildJvm child : children) {
        child.awaitLine("READY", Duration.ofMinutes(2));
      }
      Set<Long> backends = backends(url);
      long transactionsBefore = transactions(url);
      ProcessCpu serverBefore = ProcessCpu.of("postgres");
      long start = System.nanoTime();
      children.forEach(child -> child.send("GO"));
      List<long[]> results = new ArrayList<>();
      for (ChildJvm child : children) {
        String[] line = child.awaitLine("DONE", contend.plusMinutes(2)).split(" ");
        results.add(new long[] {Long.parseLong(line[1]), Long.parseLong(line[2])});
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      ProcessCpu serverAfter = ProcessCpu.of("postgres");
      // A backend flushes its counters when it ends: count after the children closed their pools.
      children.forEach(child -> child.send("EXIT"));
      for (ChildJvm child : children) {
        child.awaitExit(Duration.ofMinutes(1));
      }
      long transactions = transactions(url) - transactionsBefore;
      print(
          processes,
          holdMillis,
          seconds,
          results,
          transactions,
          serverAfter,
          serverBefore,
          backends);
    } finally {
      children.forEach(ChildJvm::close);
      try (Connection connection = DriverManager.getConnection(url);
          Statement drop = connection.createStatement()) {
        drop.execute("DROP TABLE IF EXISTS " + table);
        drop.execute("DROP TABLE IF EXISTS " + table + "_fence");
      }
    }
  }

  private static void print(
      int processes,
      long holdMillis,
      double seconds,
      List<long[]> results,
      long transactions,
      ProcessCpu serverAfter,
      ProcessCpu serverBefore,
      Set<Long> backends) {
    long fewest = Long.MAX_VALUE;
    long most = 0;
    long total = 0;
    long longestWait = 0;
    for (long[] result : results) {
      fewest = Math.min(fewest, result[0]);
      most = Math.max(most, result[0]);
      total += result[0];
      longestWait = Math.max(longestWait, result[1]);
    }
    double perSecond = transactions / seconds;
    // Each acquisition is two statements of the holder's (the write and the release): the rest is
    // what the waiting costs.
    double waiting = Math.max(0, transactions - 2 * total) / seconds / Math.max(1, processes - 1);
    System.out.println(
        "| processes | hold ms | seconds | acquisitions | fewest / most per process |"
            + " longest wait ms | server statements/s | waiting statements/s per waiter |"
            + " server CPU % of one core |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    System.out.printf(
        Locale.ROOT,
        "| %d | %d | %.1f | %,d | %,d / %,d | %,d | %,.0f | %,.1f | %.1f |%n",
        processes,
        holdMillis,
        seconds,
        total,
        fewest,
        most,
        longestWait,
        perSecond,
        waiting,
        serverAfter.secondsSince(serverBefore, backends) / seconds * 100);
  }

  /**
   * One contender: says {@code READY}, waits for {@code GO}, acquires and releases for the given
   * time, says {@code DONE <acquisitions> <longest wait ms>}, and ends on {@code EXIT}.
   */
  private static void child(String url, String table, Duration contend, long holdMillis)
      throws Exception {
    BufferedReader commands =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (HikariDataSource pool = pool(url, 2);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(pool, JdbcOptions.builder().tableName(table).build());
        LeaseManager manager = LeaseManager.builder(repository).build()) {
      System.out.println("READY");
      commands.readLine();
      long deadline = System.nanoTime() + contend.toNanos();
      long acquisitions = 0;
      long longestWait = 0;
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        long asked = System.nanoTime();
        try (Lease lease = manager.acquire(KEY, Duration.ofNanos(left))) {
          longestWait = Math.max(longestWait, (System.nanoTime() - asked) / 1_000_000);
          acquisitions++;
          Thread.sleep(holdMillis); // the work done under the lease
        } catch (LeaseHeld stillHeld) {
          break; // the time ran out while waiting
        }
      }
      System.out.println("DONE " + acquisitions + " " + longestWait);
      commands.readLine();
    }
  }

  private static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.addDataSourceProperty("ApplicationName", APPLICATION);
    return new HikariDataSource(config);
  }

  /** The URL with the benchmark's own database, made if the server has none of that name. */
  private static String ownDatabase(String url) throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
        PreparedStatement exists =
            connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      exists.setString(1, DATABASE);
      try (ResultSet row = exists.executeQuery()) {
        if (!row.next()) {
          try (Statement create = connection.createStatement()) {
            create.execute("CREATE DATABASE " + DATABASE);
          }
        }
      }
    }
    return url.replaceFirst("(//[^/]+/)[^?]*", "$1" + DATABASE);
  }

  /** Transactions committed and rolled back in the benchmark's database so far. */
  private static long transactions(String url) throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
        Statement select = connection.createStatement();
        ResultSet row =
            select.executeQuery(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '"
                    + DATABASE
                    + "'")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** The server processes of the children's connections. */
  private static Set<Long> backends(String url) throws Exception {
    Set<Long> pids = new HashSet<>();
    try (Connection connection = DriverManager.getConnection(url);
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE application_name = ?")) {
      select.setString(1, APPLICATION);
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          pids.add(row.getLong(1));
        }
      }
    }
    return pids;
  }
}
