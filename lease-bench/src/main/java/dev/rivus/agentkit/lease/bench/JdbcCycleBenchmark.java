/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One acquire + release cycle on PostgreSQL or MariaDB ({@code server}), each benchmark thread on a
 * key of its own, side by side: our library ({@code lease}: a {@link
 * dev.rivus.agentkit.lease.LeaseManager} on {@code JdbcLeaseRepository} on HikariCP) and the raw
 * floor of the same durability ({@code floor}: on PostgreSQL one durable and one asynchronous
 * conditional {@code UPDATE}, one statement each; on MariaDB two durable conditional {@code
 * UPDATE}s in auto-commit, since InnoDB has no per-transaction flush setting and the repository
 * commits every write durably there); on PostgreSQL also {@code floor-set-local} (the asynchronous
 * {@code UPDATE} as {@code SET LOCAL synchronous_commit = off}, {@code UPDATE}, {@code COMMIT}),
 * ShedLock's {@code JdbcTemplateLockProvider} and Spring Integration's {@code JdbcLockRegistry},
 * both on HikariCP and on their PostgreSQL tables. See {@link RawFloorContender}, {@link
 * LeaseContender}, {@link ShedLockContender} and {@link SpringLockContender}. Servers: {@code
 * LEASE_BENCH_POSTGRES_URL}, {@code LEASE_BENCH_MARIADB_URL}.
 *
 * <p>Run (from the repository root). Each system is measured on its own here, one after another;
 * the ratios in BENCHMARKS.md come from {@link JdbcCycleRunner}, which runs the same systems
 * interleaved in one process. MariaDB has {@code lease} and {@code floor} only: name them, or its
 * trials of the other systems fail at their set-up.
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -jar lease-bench/target/benchmarks.jar JdbcCycleBenchmark -p server=postgresql -t 1
 * java -jar lease-bench/target/benchmarks.jar JdbcCycleBenchmark -p server=postgresql -t 2
 * java -jar lease-bench/target/benchmarks.jar JdbcCycleBenchmark -p server=mariadb \
 *     -p system=lease,floor -t 1
 * java -jar lease-bench/target/benchmarks.jar JdbcCycleBenchmark -p server=mariadb \
 *     -p system=lease,floor -t 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class JdbcCycleBenchmark {

  /** The database server. */
  @Param({"postgresql", "mariadb"})
  public String server;

  /** The system under test; on MariaDB, {@code lease} or {@code floor}. */
  @Param({"lease", "floor", "floor-set-local", "shedlock", "spring-integration"})
  public String system;

  private final AtomicInteger threads = new AtomicInteger();
  private CycleContender contender;

  /**
   * Sets up the system on fresh tables.
   *
   * @throws IllegalArgumentException if the server is unknown, or the system is not measured on it
   * @throws Exception if it cannot be set up
   */
  @Setup(Level.Trial)
  public void open() throws Exception {
    JdbcServers where;
    switch (server) {
      case "postgresql":
        where = JdbcServers.POSTGRESQL;
        break;
      case "mariadb":
        where = JdbcServers.MARIADB;
        if (!JdbcCycleRunner.MARIADB_SYSTEMS.contains(system)) {
          throw new IllegalArgumentException(
              system
                  + " is measured on PostgreSQL only; on MariaDB: -p system="
                  + String.join(",", JdbcCycleRunner.MARIADB_SYSTEMS));
        }
        break;
      default:
        throw new IllegalArgumentException("unknown server " + server);
    }
    contender = CycleContender.open(system, where);
  }

  /**
   * One acquire + release.
   *
   * @param key the thread's key
   * @return what the cycle produced
   * @throws Exception if the system fails
   */
  @Benchmark
  public long acquireAndRelease(ThreadKey key) throws Exception {
    return key.cycle.run();
  }

  /**
   * Closes the system and drops its tables.
   *
   * @throws Exception if closing fails
   */
  @TearDown(Level.Trial)
  public void close() throws Exception {
    contender.close();
  }

  /** One benchmark thread's key and cycle. */
  @State(Scope.Thread)
  public static class ThreadKey {
    CycleContender.Cycle cycle;

    /**
     * Prepares the thread's key.
     *
     * @param benchmark the benchmark's shared state
     * @throws Exception if the key cannot be prepared
     */
    @Setup(Level.Trial)
    public void open(JdbcCycleBenchmark benchmark) throws Exception {
      cycle = benchmark.contender.forThread(benchmark.threads.getAndIncrement());
    }

    /**
     * Closes the thread's cycle.
     *
     * @throws Exception if closing fails
     */
    @TearDown(Level.Trial)
    public void close() throws Exception {
      cycle.close();
    }
  }
}
