/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How many leases each store renews per second in one batch, as a manager's renewal round does:
 * {@code N} records written once, then {@code rounds} calls of {@link LeaseRepository#saveAll} with
 * a renewal of every one, each timed. The rate is {@code N} divided by the median round; a manager
 * can hold about rate × heartbeat leases before its rounds run back to back, and from about 1.4×
 * that (with a heartbeat of a third of the TTL) its rounds run late ({@code renewalLate}). Not a
 * JMH benchmark: a round of thousands of writes is the unit.
 *
 * <p>Run (from the repository root; PostgreSQL and MariaDB as in {@link JdbcServers}; the figures
 * go to BENCHMARKS.md and the store docs):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar dev.rivus.agentkit.lease.bench.RenewalCapacityRunner \
 *     memory,files,sqlite,postgresql,mariadb 10000 5
 * </pre>
 *
 * <p>Arguments: the stores, comma-separated; the number of leases (records) per store; the rounds.
 * The JSON files and SQLite go to a fresh temporary directory (java.io.tmpdir), the databases to a
 * table of a fresh name, dropped after.
 */
public final class RenewalCapacityRunner {

  private static final HolderIdentity HOLDER =
      new HolderIdentity(
          new ProcessIdentity("bench", "boot-1", "pid:[1]", ProcessHandle.current().pid(), "t"),
          "capacity-1");

  private RenewalCapacityRunner() {}

  /**
   * Runs the measurement.
   *
   * @param args the stores, the number of leases and the number of rounds
   * @throws Exception if a store cannot be used
   */
  public static void main(String[] args) throws Exception {
    List<String> stores =
        Arrays.asList(
            (args.length > 0 ? args[0] : "memory,files,sqlite,postgresql,mariadb").split(","));
    int leases = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    System.out.println(
        "| store | leases | created in s | round p50 ms | round min ms | round max ms |"
            + " renewals/s (p50) |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (String store : stores) {
      run(store.trim(), leases, rounds);
    }
  }

  private static void run(String store, int leases, int rounds) throws Exception {
    Path dir = Files.createTempDirectory("lease-bench-capacity");
    String table = JdbcServers.freshTable("capacity");
    HikariDataSource pool = null;
    LeaseRepository repository;
    switch (store) {
      case "memory" -> repository = new MemoryLeaseRepository();
      case "files" -> repository = FileLeaseRepository.open(dir.resolve("leases"));
      case "sqlite" -> repository = SqliteLeaseRepository.open(dir.resolve("leases.db"));
      case "postgresql", "mariadb" -> {
        JdbcServers server =
            store.equals("postgresql") ? JdbcServers.POSTGRESQL : JdbcServers.MARIADB;
        pool = server.pool("capacity");
        repository =
            JdbcLeaseRepository.open(
                pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
      }
      default -> throw new IllegalArgumentException("unknown store '" + store + "'");
    }
    try (LeaseRepository open = repository) {
      long createStart = System.nanoTime();
      List<LeaseSnapshot> records = create(open, leases);
      double createdIn = (System.nanoTime() - createStart) / 1e9;
      long[] nanos = new long[rounds];
      for (int r = 0; r < rounds; r++) {
        Instant now = Instant.now();
        List<LeaseWrite> writes = new ArrayList<>(records.size());
        for (LeaseSnapshot record : records) {
          writes.add(record.renewal(now));
        }
        long start = System.nanoTime();
        List<SaveOutcome> outcomes = open.saveAll(writes);
        nanos[r] = System.nanoTime() - start;
        for (int i = 0; i < outcomes.size(); i++) {
          if (outcomes.get(i).failure() != null) {
            throw new IllegalStateException(
                store + ": renewal failed: " + outcomes.get(i).failure());
          }
          records.set(i, outcomes.get(i).write().snapshot());
        }
      }
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      double p50 = sorted[rounds / 2] / 1e6;
      double rate = leases / (p50 / 1e3);
      System.out.printf(
          Locale.ROOT,
          "| %s | %,d | %.1f | %.1f | %.1f | %.1f | %,.0f |%n",
          store,
          leases,
          createdIn,
          p50,
          sorted[0] / 1e6,
          sorted[rounds - 1] / 1e6,
          rate);
    } finally {
      if (pool != null) {
        pool.close();
        (store.equals("postgresql") ? JdbcServers.POSTGRESQL : JdbcServers.MARIADB).drop(table);
      }
      TempDirs.delete(dir);
    }
  }

  /** Writes the first acquisition of every key, in batches of a thousand. */
  private static List<LeaseSnapshot> create(LeaseRepository repository, int leases) {
    List<LeaseSnapshot> records = new ArrayList<>(leases);
    Instant now = Instant.now();
    for (int from = 0; from < leases; from += 1000) {
      List<LeaseWrite> writes = new ArrayList<>();
      for (int i = from; i < Math.min(leases, from + 1000); i++) {
        writes.add(
            LeaseSnapshot.firstAcquisition(
                String.format(Locale.ROOT, "capacity/%06d", i), HOLDER, Duration.ofHours(1), now));
      }
      for (SaveOutcome outcome : repository.saveAll(writes)) {
        if (outcome.failure() != null) {
          throw new IllegalStateException("creation failed: " + outcome.failure());
        }
        records.add(outcome.write().snapshot());
      }
    }
    return records;
  }
}
