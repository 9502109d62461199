package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;

/** The memory repository passes the repository contract. */
class MemoryLeaseRepositoryContractTest extends LeaseRepositoryContract {

  @Override
  protected LeaseRepository createRepository() {
    return new MemoryLeaseRepository();
  }
}
