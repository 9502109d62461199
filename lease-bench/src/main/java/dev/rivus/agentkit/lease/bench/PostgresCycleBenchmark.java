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
 * One acquire + release cycle on PostgreSQL, each benchmark thread on a key of its own, side by
 * side: our library ({@code lease}: a {@link dev.rivus.agentkit.lease.LeaseManager} on {@code
 * JdbcLeaseRepository} on HikariCP), the raw floor of the same durability ({@code floor}: one
 * durable and one asynchronous conditional {@code UPDATE}, one statement each; {@code
 * floor-set-local}: the asynchronous one as {@code SET LOCAL synchronous_commit = off}, {@code
 * UPDATE}, {@code COMMIT}), ShedLock's {@code JdbcTemplateLockProvider} and Spring Integration's
 * {@code JdbcLockRegistry}, both on HikariCP. See {@link RawFloorContender}, {@link
 * LeaseContender}, {@link ShedLockContender} and {@link SpringLockContender}. Server: {@code
 * LEASE_BENCH_POSTGRES_URL}.
 *
 * <p>Run (from the repository root). Each system is measured on its own here, one after another;
 * the ratios in BENCHMARKS.md come from {@link JdbcCycleRunner}, which runs the same systems
 * interleaved in one process:
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -jar lease-bench/target/benchmarks.jar PostgresCycleBenchmark -t 1
 * java -jar lease-bench/target/benchmarks.jar PostgresCycleBenchmark -t 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class PostgresCycleBenchmark {

  /** The system under test. */
  @Param({"lease", "floor", "floor-set-local", "shedlock", "spring-integration"})
  public String system;

  private final AtomicInteger threads = new AtomicInteger();
  private CycleContender contender;

  /**
   * Sets up the system on fresh tables.
   *
   * @throws Exception if it cannot be set up
   */
  @Setup(Level.Trial)
  public void open() throws Exception {
    contender = CycleContender.open(system, JdbcServers.POSTGRESQL);
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
    public void open(PostgresCycleBenchmark benchmark) throws Exception {
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
