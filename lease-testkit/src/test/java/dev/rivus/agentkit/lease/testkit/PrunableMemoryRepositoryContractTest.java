package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;

/** A prunable repository runs the contract's pruning test and prune steps in its random walks. */
class PrunableMemoryRepositoryContractTest extends LeaseRepositoryContract {

  @Override
  protected LeaseRepository createRepository() {
    return new PrunableMemoryRepository();
  }
}
