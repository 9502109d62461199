/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

/** What an observer can tell about whether a lease holder's process is still running. */
public enum Liveness {
  /** The process runs: same process table, the pid exists and started when the record says. */
  ALIVE,
  /**
   * The process is gone, or its pid now belongs to another process: the lease may be taken at once.
   */
  GONE,
  /**
   * The observer cannot tell (another host, pid namespace or boot, hidden /proc): wait for the TTL.
   */
  UNKNOWN
}
