/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.safety.workers.NoisyWorker;

/** The kinds of fault the driver injects ({@link FaultInjector}), as its plan names them. */
enum FaultKind {
  /** {@code kill -9} of a library holder, respawned. */
  KILL,
  /** {@code SIGSTOP} of a library holder for 1.5 × the longest TTL, then {@code SIGCONT}. */
  STOP,
  /** A worker's wall clock jumped by hours. */
  WALL,
  /** A worker's monotonic clock jumped forward by one to two TTLs. */
  MONO,
  /** One of the store's faults ({@link StorageFaults}), where the phase has them. */
  STORAGE,
  /** {@code kill -9} of a {@code lease run} process ({@link LeaseRunSlot}). */
  RUN_KILL,
  /** {@code SIGSTOP} of a {@code lease run} process. */
  RUN_STOP,
  /** A {@code lease run} process's stderr left unread. */
  RUN_STDERR,
  /** A noisy library worker's stderr left unread ({@link NoisyWorker}). */
  STDERR,
  /** A holder's database sessions ended by the server (database phases only). */
  DB_KILL,
  /** A holder's network to the database cut, then healed (database phases only). */
  DB_CUT,
  /** The database server restarted (a private server's phase only). */
  DB_RESTART,
  /** A {@code lease run} holder's database sessions ended ({@code db_kill} in the log). */
  RUN_DB_KILL,
  /** A {@code lease run} holder's network to the database cut ({@code db_cut} in the log). */
  RUN_DB_CUT;

  /** Whether it strikes the {@code lease run} worker, which may have no run under way. */
  boolean hitsLeaseRun() {
    return this == RUN_KILL
        || this == RUN_STOP
        || this == RUN_STDERR
        || this == RUN_DB_KILL
        || this == RUN_DB_CUT;
  }
}
