/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.StoreLost;

/**
 * What a lease handle and the work run under it need of the manager that holds the lease: the
 * manager's bookkeeping of its leases, and the loss of all of them with their store. All a handle
 * reaches of its manager besides the {@link ManagerParts}; acquisition stays out of its reach.
 *
 * <p>Implementations are thread-safe: any thread that closes a handle or runs work under it calls
 * them.
 */
interface LeaseOwner {

  /**
   * A closed handle's record may still be ours: release it if so ({@code wasHeld}: the handle was
   * still held when it was closed); waits for it, never throws.
   */
  void release(ManagedLease lease, boolean wasHeld);

  /** The handle ended (closed or lost): renewal rounds no longer visit it. */
  void forget(ManagedLease lease);

  /**
   * Fenced work of a lease started holding a key lock ({@code running}), or the last such work
   * ended, so that renewal rounds check its key locks while it runs.
   */
  void fencedWork(FencedRunner runner, boolean running);

  /** The store is gone: every lease held through it is lost, at once. */
  void storeLost(StoreLost lost);
}
