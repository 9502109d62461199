/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A helper for a resource that checks fencing tokens itself: it remembers the highest generation
 * seen per key and refuses anything smaller. This is the strongest protection a lease can give: the
 * resource refuses a stale writer even if that writer bypasses the key lock or runs on another
 * machine.
 *
 * <p>Thread-safe; the check and the update are one atomic step. Memory grows with the number of
 * keys.
 */
public final class TokenGuard {

  private final ConcurrentMap<String, Long> highest = new ConcurrentHashMap<>();

  /** Creates an empty guard. */
  public TokenGuard() {}

  /**
   * Admits a write carrying {@code generation} if no higher generation was admitted for the key.
   *
   * @param key the lease key
   * @param generation the writer's fencing token
   * @return {@code true} if admitted (and remembered), {@code false} if a higher one was seen:
   *     refuse the write
   */
  public boolean admit(String key, long generation) {
    LeaseKeys.requireValid(key);
    boolean[] admitted = {false};
    highest.compute(
        key,
        (k, seen) -> {
          admitted[0] = seen == null || generation >= seen;
          return admitted[0] ? Long.valueOf(generation) : seen;
        });
    return admitted[0];
  }

  /**
   * Returns the highest generation admitted for a key.
   *
   * @param key the lease key
   * @return the highest admitted generation, or {@code 0} if none
   */
  public long highest(String key) {
    return highest.getOrDefault(key, 0L);
  }
}
