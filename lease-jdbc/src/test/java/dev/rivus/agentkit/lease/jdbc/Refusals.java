/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import java.util.concurrent.Callable;

/** Asserts that an acquisition is refused, saying what happened instead when it is not. */
final class Refusals {

  private Refusals() {}

  /**
   * Runs {@code acquire} and returns the {@link LeaseHeld} it must end with.
   *
   * @param what the acquisition, for the failure message
   * @throws AssertionError if it acquired the lease, naming the generation, or failed otherwise
   */
  static LeaseHeld refused(String what, Callable<Lease> acquire) {
    Lease lease;
    try {
      lease = acquire.call();
    } catch (LeaseHeld held) {
      return held;
    } catch (Exception e) {
      throw new AssertionError(what + ": expected LeaseHeld, but it failed with " + e, e);
    }
    long generation = lease.generation();
    lease.close();
    throw new AssertionError(
        what + ": expected LeaseHeld, but it took the lease over (generation " + generation + ")");
  }
}
