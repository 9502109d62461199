/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import dev.rivus.agentkit.lease.LeaseManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The managers {@link Leased} methods take their leases from: the application's manager, for
 * methods without a {@link Leased#ttl()}, and one manager per distinct TTL, made by a factory at
 * the first call that needs it (on the same store, with the same listeners, in the Spring Boot
 * auto-configuration) and kept until {@link #close()}.
 *
 * <p>A TTL equal to the application's manager's is served by that manager. {@link #close()} closes
 * the managers it made, releasing their leases, but not the application's manager, which is not its
 * own (as a bean, the context closes it after this). Thread-safe.
 */
public final class LeaseManagers implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(LeaseManagers.class.getName());

  private final LeaseManager defaultManager;
  private final @Nullable Function<Duration, LeaseManager> factory;
  private final Map<Duration, LeaseManager> byTtl = new ConcurrentHashMap<>();
  private final Object lock = new Object();
  private boolean closed; // guarded by lock

  /**
   * Makes the managers of {@code defaultManager} and of the TTLs {@code factory} makes managers
   * for.
   *
   * @param defaultManager the application's manager, for methods without a TTL of their own
   * @param factory makes the manager of a TTL, called at most once per TTL; the manager it returns
   *     is closed by {@link #close()}
   * @throws NullPointerException if an argument is null
   */
  public LeaseManagers(LeaseManager defaultManager, Function<Duration, LeaseManager> factory) {
    this.defaultManager = Objects.requireNonNull(defaultManager, "defaultManager");
    this.factory = Objects.requireNonNull(factory, "factory");
  }

  private LeaseManagers(LeaseManager defaultManager) {
    this.defaultManager = Objects.requireNonNull(defaultManager, "defaultManager");
    this.factory = null;
  }

  /**
   * Makes managers that are only {@code manager}: {@link #forTtl} refuses every other TTL. For an
   * application that has a manager but no store to make others on.
   *
   * @param manager the application's manager
   * @return the managers
   * @throws NullPointerException if {@code manager} is null
   */
  public static LeaseManagers only(LeaseManager manager) {
    return new LeaseManagers(manager);
  }

  /**
   * Returns the application's manager.
   *
   * @return the manager of methods without a TTL of their own
   */
  public LeaseManager defaultManager() {
    return defaultManager;
  }

  /**
   * Returns the manager whose leases have {@code ttl}: the application's manager if its TTL is
   * {@code ttl}, else the one made for {@code ttl}, made now if this is the first call for it.
   *
   * @param ttl the TTL
   * @return the manager
   * @throws IllegalStateException if these managers are closed, or were made by {@link #only}
   * @throws dev.rivus.agentkit.lease.LeaseConfigInvalid if the factory refuses the TTL
   * @throws NullPointerException if {@code ttl} is null
   */
  public LeaseManager forTtl(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.equals(defaultManager.config().ttl())) {
      return defaultManager;
    }
    LeaseManager made = byTtl.get(ttl);
    if (made != null) {
      return made;
    }
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException(
            "the lease managers of " + defaultManager.name() + " are closed");
      }
      made = byTtl.get(ttl);
      if (made == null) {
        if (factory == null) {
          throw new IllegalStateException(
              "no lease manager with TTL "
                  + ttl
                  + ": only "
                  + defaultManager.name()
                  + " (TTL "
                  + defaultManager.config().ttl()
                  + ") is here, and nothing to make others with (the Spring Boot"
                  + " auto-configuration makes them when the context has one LeaseRepository"
                  + " bean)");
        }
        made = factory.apply(ttl);
        byTtl.put(ttl, made);
      }
      return made;
    }
  }

  /**
   * Returns every manager now: the application's first, then those made for TTLs.
   *
   * @return a snapshot of the managers
   */
  public List<LeaseManager> all() {
    List<LeaseManager> all = new ArrayList<>();
    all.add(defaultManager);
    all.addAll(byTtl.values());
    return List.copyOf(all);
  }

  /**
   * Closes the managers made for TTLs, releasing their leases, and refuses to make more. Does not
   * close the application's manager. Does nothing if already closed.
   */
  @Override
  public void close() {
    List<LeaseManager> made;
    synchronized (lock) {
      closed = true;
      made = List.copyOf(byTtl.values());
    }
    for (LeaseManager manager : made) {
      try {
        manager.close();
      } catch (RuntimeException e) { // the others still release theirs
        LOG.log(System.Logger.Level.WARNING, "closing lease manager " + manager.name(), e);
      }
    }
  }
}
