package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.PrunableLeaseRepository;

/** A prunable repository runs the contract's pruning test and prune steps in its random walks. */
class PrunableMemoryRepositoryContractTest extends PrunableLeaseRepositoryContract {

  @Override
  protected PrunableLeaseRepository createRepository() {
    return new PrunableMemoryRepository();
  }
}
