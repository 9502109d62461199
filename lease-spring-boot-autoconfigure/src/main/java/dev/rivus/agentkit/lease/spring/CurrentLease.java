/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The lease of the {@link Leased} method running on this thread, and its fencing token. Set while
 * the method runs, on the thread that runs it; cleared when it returns. Thread-safe: each thread
 * sees only its own.
 */
public final class CurrentLease {

  private static final ThreadLocal<@Nullable Held> CURRENT = new ThreadLocal<>();

  private CurrentLease() {}

  /**
   * Returns the fencing token of the {@link Leased} method running on this thread.
   *
   * @return the token, to pass with every write to the protected resource
   * @throws IllegalStateException if no {@link Leased} method runs on this thread
   */
  public static FencingToken token() {
    Held held = CURRENT.get();
    if (held == null) {
      throw new IllegalStateException("no @Leased method runs on this thread");
    }
    return held.token();
  }

  /**
   * Returns the lease of the {@link Leased} method running on this thread, if one runs.
   *
   * @return the lease, or empty
   */
  public static Optional<Lease> lease() {
    Held held = CURRENT.get();
    return held == null ? Optional.empty() : Optional.of(held.lease());
  }

  /** Sets the current lease; returns what was current before, for {@link #restore}. */
  static @Nullable Held set(Lease lease, FencingToken token) {
    Held before = CURRENT.get();
    CURRENT.set(new Held(lease, token));
    return before;
  }

  static void restore(@Nullable Held before) {
    if (before == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(before);
    }
  }

  /** A lease and the token of its running fenced work. */
  record Held(Lease lease, FencingToken token) {}
}
