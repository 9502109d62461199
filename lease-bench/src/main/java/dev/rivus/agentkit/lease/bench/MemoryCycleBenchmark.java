/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Acquire + release cycles per second on the memory repository, one thread and one key: the cost of
 * the manager itself (identity, judgement, the held set, the renewer's bookkeeping, the loss
 * signal), with no storage under it. Target: 1,000,000 cycles/s.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -jar lease-bench/target/benchmarks.jar MemoryCycleBenchmark -wi 3 -w 2s -i 5 -r 3s -f 1
 * # where the time goes: add -prof jfr (or -prof gc for the allocation per cycle)
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class MemoryCycleBenchmark {

  private LeaseManager manager;

  /** Opens a manager with the default TTL on an empty memory repository. */
  @Setup(Level.Trial)
  public void open() {
    manager = LeaseManager.builder(new MemoryLeaseRepository()).build();
  }

  /**
   * Acquires the lease and releases it.
   *
   * @return the generation acquired
   */
  @Benchmark
  public long acquireAndRelease() {
    try (Lease lease = manager.acquire("bench")) {
      return lease.generation();
    }
  }

  /** Closes the manager. */
  @TearDown(Level.Trial)
  public void close() {
    manager.close();
  }
}
