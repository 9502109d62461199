/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;
import java.util.Collection;

/**
 * Acquires leases from one repository with one configuration, and keeps them renewed.
 *
 * <p>One renewer per manager renews every lease it holds in one batch per heartbeat ({@link
 * LeaseRepository#saveAll}); each lease keeps its own revision and expiry. A manager runs on at
 * most seven threads, started when needed: one timer, which only changes state (a lease expires, a
 * round falls due), two for repository calls, two for interrupts and cancel actions, one for
 * notifications (logging, {@link Lease#lost()} stages) and one for its {@link LeaseListener}, so
 * that nothing that blocks, not a hung repository call, a log write or a user's callback, delays a
 * renewal or an expiry. It owns no global state. Closing it releases every lease it still holds, in
 * one batch, and stops its threads. Thread-safe.
 *
 * <p>{@link #builder} makes a manager: set the options that differ from the defaults (TTL and
 * heartbeat, clocks, threads, liveness judge, listener, name), then build.
 *
 * <pre>{@code
 * try (LeaseManager leases = LeaseManager.builder(SqliteLeaseRepository.open(db)).build();
 *     Lease lease = leases.acquire("task:42")) {
 *   lease.runFenced(token -> store.write(result, token.generation()));
 * }
 * }</pre>
 */
public interface LeaseManager extends AutoCloseable {

  /**
   * Starts building a manager on {@code repository}; see {@link LeaseManagerBuilder} for the
   * options and their defaults.
   *
   * @param repository where lease records live; the manager does not close it
   * @return a new builder
   * @throws NullPointerException if {@code repository} is null
   */
  static LeaseManagerBuilder builder(LeaseRepository repository) {
    return new LeaseManagerBuilder(repository);
  }

  /**
   * Acquires the lease on {@code key}, failing fast if another live holder has it.
   *
   * <p>Takes the lease at once if it is free, released, or held by a process on this machine that
   * is gone (or whose pid now names another process); takes it over if this manager has seen the
   * same record unchanged for the TTL on its own monotonic clock. The write that raises the
   * generation is durable before this returns.
   *
   * @param key the lease key (see {@link LeaseKeys})
   * @return the held lease
   * @throws LeaseHeld if another live holder has the lease
   * @throws LeaseRepositoryFailure if the repository failed
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key is empty or too long
   * @throws IllegalStateException if the manager is closed
   */
  Lease acquire(String key);

  /**
   * Acquires the lease on {@code key}, trying again until it holds the lease or {@code maxWait} has
   * passed. The record is observed all along, so a holder that stops renewing is taken over within
   * the wait once the TTL has passed.
   *
   * <p>Between attempts it waits on the repository's {@linkplain LeaseRepository#watchKey watch} of
   * the key, where the repository has one: the next attempt follows the holder's release at once,
   * or when the holder's TTL would run out, or after a slow re-check (the heartbeat, at least 1 s)
   * that covers a notification the store lost; a holder on this machine is meanwhile looked at
   * every poll interval, so that its death is noticed as soon as without a watch. Without a watch
   * it polls the store: every half heartbeat, at most 200 ms, jittered.
   *
   * <p>Where many wait for one key, the key goes round: with a watch, a manager that released the
   * key less than 5 ms before waits 5 ms before its first attempt, so that the waiters its release
   * woke go first, and a waiter that was woken but found the key taken by another answers its next
   * wake-ups after a random delay (5 ms, doubling to 50 ms while it keeps losing, forgotten after a
   * quiet second), so that one release does not make every waiter read and write at once. A lone
   * waiter answers at once.
   *
   * @param key the lease key (see {@link LeaseKeys})
   * @param maxWait how long to keep trying; zero means one try
   * @return the held lease
   * @throws LeaseHeld if another live holder still has the lease when the wait ends
   * @throws LeaseRepositoryFailure if the repository failed
   * @throws InterruptedException if the calling thread was interrupted while waiting
   * @throws NullPointerException if the key or {@code maxWait} is null
   * @throws IllegalArgumentException if the key is empty or too long, or {@code maxWait} is
   *     negative
   * @throws IllegalStateException if the manager is closed
   */
  Lease acquire(String key, Duration maxWait) throws InterruptedException;

  /**
   * Acquires the leases on many keys at once: tries each key once, as {@link #acquire(String)}
   * does, with one read of their records and one write of all the acquisitions ({@link
   * LeaseRepository#saveAll}), which a store may make one durable commit. Each key is judged on its
   * own, by the same rules and with the same events to the listener; a key another writer moved
   * meanwhile is read and judged again. The leases acquired are renewed together with the others
   * the manager holds.
   *
   * <p>The whole call fails, holding nothing of what it acquired (whatever it may have written is
   * released), if the repository fails for the whole batch, or if the batch's write took so much of
   * the TTL that too little is left for a first renewal.
   *
   * @param keys the lease keys (see {@link LeaseKeys}), each at most once
   * @return the leases acquired, and who holds each of the other keys
   * @throws LeaseRepositoryFailure if the repository failed for the whole batch, or was too slow
   *     for the TTL; nothing is held then
   * @throws NullPointerException if {@code keys} or a key is null
   * @throws IllegalArgumentException if a key is empty or too long, or appears twice
   * @throws IllegalStateException if the manager is closed
   */
  Acquisitions acquireAll(Collection<String> keys);

  /**
   * Returns the configuration: the TTL and heartbeat set on the builder, validated.
   *
   * @return TTL and heartbeat
   */
  LeaseConfig config();

  /**
   * Returns the manager's name: the one given to its builder, or a random one. It names the
   * manager's threads, and its listener's events.
   *
   * @return the name
   */
  String name();

  /**
   * Releases every lease this manager still holds and stops its threads. Does nothing if already
   * closed.
   */
  @Override
  void close();
}
