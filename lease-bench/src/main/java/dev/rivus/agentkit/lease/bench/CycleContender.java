/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

/**
 * One system under test in the JDBC cycle benchmarks: a lock or lease library, or a raw floor, set
 * up on a fresh table. Each benchmark thread gets a {@link Cycle} of its own, on a key of its own.
 * Thread-safe as far as {@link #forThread} goes; each cycle is used by one thread.
 */
interface CycleContender extends AutoCloseable {

  /**
   * Prepares one thread's cycle on its own key.
   *
   * @param index the thread's number, from 0
   * @return the cycle
   * @throws Exception if the key cannot be prepared
   */
  Cycle forThread(int index) throws Exception;

  /** Closes what the contender opened and drops its tables. */
  @Override
  void close() throws Exception;

  /** One thread's acquire + release of its key. */
  interface Cycle extends AutoCloseable {

    /**
     * Acquires the key and releases it.
     *
     * @return something the work produced (a generation, a revision), for the benchmark to consume
     * @throws Exception if the system fails, or the key was not free
     */
    long run() throws Exception;

    /** Closes what the cycle opened (a raw connection). */
    @Override
    default void close() throws Exception {}
  }

  /** Opens contenders by name, each where the opener sets them up; for {@link JdbcCycleRunner}. */
  @FunctionalInterface
  interface Opener {

    /**
     * Opens the contender of the given name.
     *
     * @param name the contender's name
     * @return the contender, set up
     * @throws IllegalArgumentException if the name is unknown
     * @throws Exception if it cannot be set up
     */
    CycleContender open(String name) throws Exception;
  }

  /**
   * The contender of the given name.
   *
   * @param name {@code lease}, {@code lease-statements} (MariaDB, without the acquisition
   *     procedure), {@code floor}, {@code floor-set-local}, {@code shedlock} or {@code
   *     spring-integration}
   * @param server where
   * @return the contender, set up
   * @throws Exception if it cannot be set up
   */
  static CycleContender open(String name, JdbcServers server) throws Exception {
    switch (name) {
      case "lease":
        return new LeaseContender(server);
      case "lease-statements":
        return new LeaseContender(server, false);
      case "floor":
        return new RawFloorContender(
            server,
            server == JdbcServers.POSTGRESQL
                ? RawFloorContender.Release.ONE_STATEMENT
                : RawFloorContender.Release.DURABLE);
      case "floor-set-local":
        return new RawFloorContender(server, RawFloorContender.Release.SET_LOCAL);
      case "shedlock":
        return new ShedLockContender(server);
      case "spring-integration":
        return new SpringLockContender(server);
      default:
        throw new IllegalArgumentException("unknown contender " + name);
    }
  }
}
