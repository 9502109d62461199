/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseManager;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.springframework.integration.support.locks.ExpirableLockRegistry;

/**
 * A Spring Integration lock registry whose locks are leases of one {@link LeaseManager}: a lock
 * taken here excludes every other holder of the same lease key, in this process (any registry or
 * manager) and in every process whose manager shares the repository.
 *
 * <p>A lock key becomes a lease key by its {@code toString()}, after the region prefix ({@code
 * region:}) when the registry has a region. A key that the lease key rule ({@link LeaseKeys})
 * refuses, empty or too long, is refused by {@link #obtain} with an {@link
 * IllegalArgumentException}: it is never shortened or hashed, so two lock keys never share a lease.
 * Lock keys of different types with equal strings (the string {@code "42"} and the integer {@code
 * 42}) do share one.
 *
 * <p>{@link #obtain} returns the same {@link LeaseLock} for the same lease key for as long as the
 * registry keeps it: until {@link #expireUnusedOlderThan} removes it unlocked. The registry neither
 * owns nor closes the manager; closing the manager releases every lease its locks hold (see {@link
 * LeaseLock} for what the holders then see).
 *
 * <p>Thread-safe.
 */
// LockRegistry is generic from Spring Integration 7.0 (LockRegistry<L extends Lock>) and not
// before; the raw type is the one declaration that compiles, and means the same, on 6.5 and 7.x.
@SuppressWarnings("rawtypes")
public final class LeaseLockRegistry implements ExpirableLockRegistry {

  private static final String SEPARATOR = ":";

  private final LeaseManager manager;
  private final String prefix;
  private final ConcurrentMap<String, LeaseLock> locks = new ConcurrentHashMap<>();

  /**
   * Creates a registry without a region: a lock key's string is its lease key.
   *
   * @param manager the manager that acquires and renews the leases
   * @throws NullPointerException if {@code manager} is null
   */
  public LeaseLockRegistry(LeaseManager manager) {
    this.manager = Objects.requireNonNull(manager, "manager");
    this.prefix = "";
  }

  /**
   * Creates a registry whose lease keys are {@code region + ":" + lockKey}, so that applications
   * sharing a repository can keep their locks apart.
   *
   * @param manager the manager that acquires and renews the leases
   * @param region the prefix of every lease key; not empty, and short enough to leave room for a
   *     key
   * @throws NullPointerException if {@code manager} or {@code region} is null
   * @throws IllegalArgumentException if {@code region} is empty, or as long as the longest lease
   *     key less one character
   */
  public LeaseLockRegistry(LeaseManager manager, String region) {
    this.manager = Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(region, "region");
    if (region.isEmpty()) {
      throw new IllegalArgumentException(
          "region must not be empty; use LeaseLockRegistry(manager) for a registry without one");
    }
    if (region.length() + SEPARATOR.length() >= LeaseKeys.MAX_LENGTH) {
      throw new IllegalArgumentException(
          "region is "
              + region.length()
              + " UTF-16 code units long, which leaves no room for a lock key in a lease key of at"
              + " most "
              + LeaseKeys.MAX_LENGTH);
    }
    this.prefix = region + SEPARATOR;
  }

  /**
   * Returns the lock for {@code lockKey}: the same instance for the same lease key while the
   * registry keeps it. Obtaining a lock does not lock it.
   *
   * @param lockKey the lock key; its {@code toString()} names the lease
   * @return the lock
   * @throws NullPointerException if {@code lockKey} is null
   * @throws IllegalArgumentException if the lease key would be empty or too long (see {@link
   *     #leaseKey})
   */
  @Override
  public LeaseLock obtain(Object lockKey) {
    LeaseLock lock = locks.computeIfAbsent(leaseKey(lockKey), key -> new LeaseLock(manager, key));
    lock.touch();
    return lock;
  }

  /**
   * Returns the lease key that {@code lockKey} names in this registry: the region prefix, if any,
   * followed by the key's {@code toString()}.
   *
   * @param lockKey the lock key
   * @return the lease key, valid by {@link LeaseKeys#requireValid}
   * @throws NullPointerException if {@code lockKey} is null
   * @throws IllegalArgumentException if the key's string is null or empty, or the lease key would
   *     be longer than {@link LeaseKeys#MAX_LENGTH}; the message names the key's type and the rule
   */
  public String leaseKey(Object lockKey) {
    Objects.requireNonNull(lockKey, "lockKey");
    String text = lockKey.toString();
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException(
          "lock key of "
              + lockKey.getClass().getName()
              + " has an empty string (toString()); a lease key needs at least one character");
    }
    try {
      return LeaseKeys.requireValid(prefix + text);
    } catch (IllegalArgumentException refused) {
      throw new IllegalArgumentException(
          "lock key of "
              + lockKey.getClass().getName()
              + " cannot name a lease"
              + (prefix.isEmpty() ? "" : " with region prefix '" + prefix + "'")
              + ": "
              + refused.getMessage(),
          refused);
    }
  }

  /**
   * Removes the locks that no thread holds and that nobody obtained, locked or unlocked for at
   * least {@code age} milliseconds; {@link #obtain} then makes a new lock for their keys. A thread
   * still using a removed lock keeps its exclusion: its lease excludes the new lock's, which then
   * waits by polling the repository rather than on a local queue.
   *
   * @param age the least idle time of a removed lock, in milliseconds
   */
  @Override
  public void expireUnusedOlderThan(long age) {
    long now = System.nanoTime();
    long ageNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, age));
    locks.values().removeIf(lock -> lock.idleSince(now, ageNanos));
  }

  @Override
  public String toString() {
    return "LeaseLockRegistry[manager="
        + manager.name()
        + (prefix.isEmpty() ? "" : ", region=" + prefix.substring(0, prefix.length() - 1))
        + ", locks="
        + locks.size()
        + "]";
  }
}
