/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * One acquire + release cycle on one thread and one key, through a {@link LeaseManager}, per
 * repository: {@code sqlite} (the default: acquisition synced, release not), {@code
 * sqlite-sync-every-write}, {@code file} and {@code memory}. Compare {@code sqlite} with {@link
 * RawSqliteFloorBenchmark} {@code FULL_NORMAL}, and {@code sqlite-sync-every-write} with {@code
 * FULL_FULL}, measured in the same run.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -jar lease-bench/target/benchmarks.jar 'RawSqliteFloorBenchmark|LeaseCycleBenchmark' \
 *     -wi 3 -w 2s -i 5 -r 3s -f 1 -rf json -rff lease-bench/target/results.json
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class LeaseCycleBenchmark {

  /** The repository under test. */
  @Param({"sqlite", "sqlite-sync-every-write", "file", "memory"})
  public String repository;

  private Path dir;
  private LeaseRepository leases;
  private LeaseManager manager;

  /**
   * Opens the repository on a fresh scratch directory and a manager with the default TTL.
   *
   * @throws Exception if the repository cannot be opened
   */
  @Setup(Level.Trial)
  public void open() throws Exception {
    dir = Files.createTempDirectory("lease-bench-cycle");
    leases =
        switch (repository) {
          case "sqlite" -> SqliteLeaseRepository.open(dir.resolve("leases.db"));
          case "sqlite-sync-every-write" ->
              SqliteLeaseRepository.open(
                  dir.resolve("leases.db"), SqliteOptions.builder().syncEveryWrite(true).build());
          case "file" -> FileLeaseRepository.open(dir.resolve("leases"));
          case "memory" -> new MemoryLeaseRepository();
          default -> throw new IllegalArgumentException("unknown repository " + repository);
        };
    manager = LeaseManager.builder(leases).build();
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

  /**
   * Closes the manager and repository and deletes the scratch directory.
   *
   * @throws Exception if closing fails
   */
  @TearDown(Level.Trial)
  public void close() throws Exception {
    manager.close();
    leases.close();
    TempDirs.delete(dir);
  }
}
