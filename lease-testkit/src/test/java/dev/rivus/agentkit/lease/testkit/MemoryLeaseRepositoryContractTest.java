/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;

/** The memory repository passes the repository contract, pruning included. */
class MemoryLeaseRepositoryContractTest extends PrunableLeaseRepositoryContract {

  @Override
  protected PrunableLeaseRepository createRepository() {
    return new MemoryLeaseRepository();
  }

  /** Memory is one instance's own: a second process cannot open it. */
  @Override
  protected PrunableLeaseRepository openSecondInstance() {
    return (PrunableLeaseRepository) repository();
  }
}
