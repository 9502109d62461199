/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;

/** ShedLock's provider suite on the memory store. */
class MemoryShedLockSuiteTest extends ShedLockSuite {

  @Override
  LeaseRepository openRepository() {
    return new MemoryLeaseRepository();
  }
}
