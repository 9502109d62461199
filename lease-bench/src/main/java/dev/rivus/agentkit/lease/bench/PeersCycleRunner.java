/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.util.List;

/**
 * Our PostgreSQL cycle beside every peer in one sitting: {@code lease} ({@link LeaseContender}),
 * the PostgreSQL {@code floor} ({@link RawFloorContender}), {@code shedlock} ({@link
 * ShedLockContender}) and {@code spring-integration} ({@link SpringLockContender}) on PostgreSQL,
 * and Redisson's {@code redisson-rlock} and {@code redisson-fenced} on Redis ({@link
 * RedissonContender}), interleaved in 500 ms slices by {@link JdbcCycleRunner}'s machinery, on 1
 * and then 2 threads, each thread on a key of its own. Prints the same tables as {@link
 * JdbcCycleRunner}, with the ratios of our cycle to each; the Redis peers have no target, since
 * their store is another (on the benchmark machine, Redis keeps its data in memory only, with
 * neither an append-only file nor snapshots, where every acquisition of ours waits for a flush of
 * PostgreSQL's log).
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar dev.rivus.agentkit.lease.bench.PeersCycleRunner 60
 * </pre>
 *
 * <p>Argument: the seconds measured per thread count, all systems together (default 60, after 10 s
 * of warm-up). Servers: {@code LEASE_BENCH_POSTGRES_URL} (default {@code
 * jdbc:postgresql://127.0.0.1:5432/test?user=root}), {@code LEASE_BENCH_REDIS_URL} (default {@code
 * redis://127.0.0.1:6379}).
 */
public final class PeersCycleRunner {

  /** The systems, ours first. */
  static final List<String> SYSTEMS =
      List.of(
          "lease", "floor", "shedlock", "spring-integration", "redisson-rlock", "redisson-fenced");

  private PeersCycleRunner() {}

  /**
   * Runs the measurement and prints the tables.
   *
   * @param args the seconds per thread count
   * @throws Exception if a system fails
   */
  public static void main(String[] args) throws Exception {
    long measureNanos = (args.length > 0 ? Long.parseLong(args[0]) : 60) * 1_000_000_000L;
    JdbcCycleRunner.run("PostgreSQL and Redis", SYSTEMS, PeersCycleRunner::open, measureNanos);
  }

  private static CycleContender open(String name) throws Exception {
    switch (name) {
      case "redisson-rlock":
        return new RedissonContender(RedissonContender.Kind.RLOCK);
      case "redisson-fenced":
        return new RedissonContender(RedissonContender.Kind.FENCED);
      default:
        return CycleContender.open(name, JdbcServers.POSTGRESQL);
    }
  }
}
