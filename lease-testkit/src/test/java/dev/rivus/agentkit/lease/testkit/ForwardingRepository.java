package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.util.List;
import java.util.Optional;

/** A repository that forwards to a memory repository; broken variants override one operation. */
class ForwardingRepository implements LeaseRepository {

  final LeaseRepository delegate = new MemoryLeaseRepository();

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    return delegate.load(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return delegate.loadAll();
  }

  @Override
  public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
    delegate.save(key, snapshot, expectedRevision);
  }

  @Override
  public Fence lockFence(String key) throws InterruptedException {
    return delegate.lockFence(key);
  }
}
