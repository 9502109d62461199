/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import dev.rivus.agentkit.lease.Lease;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * What the threads of one registry share about one key: the local lock that orders them (its owner
 * and hold count are the lock's), and the lease its owner holds. It lives in the registry's map
 * while any thread uses it, so every handle of the key meets the same one.
 */
final class KeyState {

  /** Excludes this JVM's threads from each other before any of them asks the manager. */
  final ReentrantLock local = new ReentrantLock();

  /** The threads that hold, wait for or are taking the lock; changed only in the map's compute. */
  int users;

  /** The owner's lease, set by the owner on its first hold; read and written by it alone. */
  @Nullable Lease lease;
}
