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
import org.jspecify.annotations.Nullable;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * A Spring Integration {@code LockRegistry} whose locks are leases of one {@link LeaseManager}:
 * each lock excludes every other holder of its key, in this JVM and in any process that acquires
 * leases from the same store, and hands its holder the lease's fencing token ({@link
 * LeaseLock#token()}).
 *
 * <p>Keys are strings, as Spring's {@code JdbcLockRegistry} requires too: a key of another type is
 * refused rather than turned into a string that another key might share. A key names the lease
 * {@code key} itself, or {@code region + ":" + key} on a registry with a region; the lease key then
 * follows {@link LeaseKeys}. The lease key is what other processes see, so {@code lease run
 * orders:42} and {@code obtain("42")} on the region {@code orders} exclude each other.
 *
 * <p>The registry neither owns nor closes the manager; closing the manager releases the leases of
 * every lock still held, which their holders then see as lost ({@link LeaseLock#unlock()}). Keep
 * one registry per manager and region: two registries on one manager exclude each other as two
 * processes do, by the store alone, so a thread that holds a key through one waits for itself if it
 * locks the same key through the other. The registry keeps a small entry per key only while a
 * thread holds or waits for its lock; nothing needs expiring.
 *
 * <p>It implements {@code LockRegistry} only. Not {@code RenewableLockRegistry}: the manager renews
 * every lease it holds each heartbeat, so a renewal on demand would add nothing, and the per-call
 * TTL of that interface (Spring Integration 7.0) is not one a lease can take, as the TTL is the
 * manager's. Not {@code ExpirableLockRegistry}: there are no idle locks to expire. The type is
 * written against the raw {@code LockRegistry}, which Spring Integration 6.5 declares without a
 * type parameter and 7.0 with one, so that one jar runs on both; {@link #obtain} returns {@link
 * LeaseLock} either way. On 7.0, call the interface's {@code executeLocked} methods through a
 * {@code LockRegistry<?>} variable: through a {@code LeaseLockRegistry} one they are the raw
 * type's, unchecked and throwing {@code Throwable}.
 *
 * <p>Thread-safe.
 */
@SuppressWarnings("rawtypes") // LockRegistry<L> in Spring Integration 7.0, LockRegistry in 6.5
public final class LeaseLockRegistry implements LockRegistry {

  private final LeaseManager manager;
  private final @Nullable String region;
  private final ConcurrentMap<String, KeyState> states = new ConcurrentHashMap<>();

  /**
   * Creates a registry whose lock keys are lease keys as they are.
   *
   * @param manager acquires, renews and releases the locks' leases; the registry does not close it
   * @throws NullPointerException if {@code manager} is null
   */
  public LeaseLockRegistry(LeaseManager manager) {
    this.manager = Objects.requireNonNull(manager, "manager");
    this.region = null;
  }

  /**
   * Creates a registry whose lock key {@code k} is the lease key {@code region + ":" + k}, as
   * Spring's {@code JdbcLockRegistry} partitions its table by region. The region holds no colon, so
   * two regions never name the same lease.
   *
   * @param manager acquires, renews and releases the locks' leases; the registry does not close it
   * @param region one or more characters, none of them {@code ':'}
   * @throws NullPointerException if {@code manager} or {@code region} is null
   * @throws IllegalArgumentException if {@code region} is empty, holds a colon, or leaves no room
   *     for a key within {@link LeaseKeys#MAX_LENGTH}
   */
  public LeaseLockRegistry(LeaseManager manager, String region) {
    this.manager = Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(region, "region");
    if (region.isEmpty() || region.indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "region must be one or more characters without ':', was '" + region + "'");
    }
    if (region.length() + 2 > LeaseKeys.MAX_LENGTH) {
      throw new IllegalArgumentException(
          "region is "
              + region.length()
              + " characters long, which leaves no room for ':' and a key in a lease key of at"
              + " most "
              + LeaseKeys.MAX_LENGTH);
    }
    this.region = region;
  }

  /**
   * Returns the lock of {@code lockKey}. Every lock this registry returns for one key is the same
   * lock: a thread that holds one holds them all (its hold count is theirs), and any of them
   * unlocks it. Obtaining a lock takes nothing; {@link LeaseLock#lock()} does.
   *
   * @param lockKey a string; it names the lease {@link #leaseKey(Object)} returns
   * @return the lock
   * @throws NullPointerException if {@code lockKey} is null
   * @throws IllegalArgumentException if {@code lockKey} is not a string, or the lease key it makes
   *     breaks the rule of {@link LeaseKeys} (empty, or too long)
   */
  @Override
  public LeaseLock obtain(Object lockKey) {
    return new LeaseLock(this, leaseKey(lockKey));
  }

  /**
   * Returns the lease key of a lock key: the key itself, or {@code region + ":" + key}.
   *
   * @param lockKey a string
   * @return the lease key the lock of {@code lockKey} acquires
   * @throws NullPointerException if {@code lockKey} is null
   * @throws IllegalArgumentException if {@code lockKey} is not a string, or the lease key breaks
   *     the rule of {@link LeaseKeys}
   */
  public String leaseKey(Object lockKey) {
    Objects.requireNonNull(lockKey, "lockKey");
    if (!(lockKey instanceof String)) {
      throw new IllegalArgumentException(
          "lock keys must be strings, was a "
              + lockKey.getClass().getName()
              + " ("
              + lockKey
              + "): pass a string that names it alone, as its toString() may be shared with"
              + " another key");
    }
    String key = (String) lockKey;
    try {
      return LeaseKeys.requireValid(region == null ? key : region + ":" + key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "lock key '"
              + (key.length() > 32 ? key.substring(0, 32) + "..." : key)
              + "' cannot name a lease"
              + (region == null ? "" : " after the region prefix '" + region + ":'")
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Returns the manager whose leases the locks are.
   *
   * @return the manager
   */
  public LeaseManager manager() {
    return manager;
  }

  /** Joins the users of a key's state, making the state if no thread uses the key. */
  KeyState enter(String leaseKey) {
    return states.compute(
        leaseKey,
        (key, existing) -> {
          KeyState state = existing != null ? existing : new KeyState();
          state.users++;
          return state;
        });
  }

  /** Leaves the users of a key's state, dropping the state when the last one leaves. */
  void leave(String leaseKey, KeyState state) {
    states.computeIfPresent(
        leaseKey,
        (key, existing) -> {
          if (existing != state) {
            return existing;
          }
          existing.users--;
          return existing.users == 0 ? null : existing;
        });
  }

  /** The state of a key some thread uses, or null if none does. */
  @Nullable KeyState current(String leaseKey) {
    return states.get(leaseKey);
  }

  @Override
  public String toString() {
    return "LeaseLockRegistry[manager="
        + manager.name()
        + (region == null ? "" : ", region=" + region)
        + ", keys in use="
        + states.size()
        + "]";
  }
}
