/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import dev.rivus.agentkit.lease.Lease;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps leases held (and renewed by their manager) until their {@link Leased#holdAtLeast()} has
 * passed, then releases them, on a thread of its own: a release is a store write, which must not
 * hold up the method's caller or a scheduler. {@link #close()} releases the leases it still holds
 * at once, as the manager's own close would. Thread-safe.
 */
public final class HoldAtLeast implements AutoCloseable {

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "lease-hold-at-least");
            thread.setDaemon(true);
            return thread;
          });
  private final Set<Lease> waiting = ConcurrentHashMap.newKeySet();

  /** Makes one with a thread of its own, started at the first lease it keeps. */
  public HoldAtLeast() {}

  /**
   * Releases {@code lease} after {@code delay}.
   *
   * @param lease a held lease
   * @param delay how long to keep it
   */
  public void closeLater(Lease lease, Duration delay) {
    waiting.add(lease);
    try {
      // Nothing to wait for: a release that fails leaves the record to expire after its TTL.
      ScheduledFuture<?> unused =
          timer.schedule(
              () -> {
                if (waiting.remove(lease)) {
                  lease.close();
                }
              },
              delay.toNanos(),
              TimeUnit.NANOSECONDS);
    } catch (RuntimeException refused) { // closed meanwhile
      waiting.remove(lease);
      lease.close();
    }
  }

  /**
   * Returns how many leases it holds now.
   *
   * @return the leases waiting for their time
   */
  public int waiting() {
    return waiting.size();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    for (Lease lease : List.copyOf(waiting)) {
      if (waiting.remove(lease)) {
        lease.close();
      }
    }
  }
}
