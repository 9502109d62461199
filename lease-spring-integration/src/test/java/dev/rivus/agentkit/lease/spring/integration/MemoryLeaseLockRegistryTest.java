/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;

/** The registry's contract on the memory repository. */
class MemoryLeaseLockRegistryTest extends LeaseLockRegistryContract {

  @Override
  LeaseRepository openRepository() {
    return new MemoryLeaseRepository();
  }
}
