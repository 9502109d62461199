package dev.rivus.agentkit.lease;

import java.util.List;
import java.util.Optional;

/**
 * Forwards every call to another repository; tests override what they change. (The testkit's {@code
 * ForwardingLeaseRepository} is the same for other modules; core tests cannot depend on the
 * testkit, which depends on the core.)
 */
class ForwardingRepository implements LeaseRepository {

  private final LeaseRepository delegate;

  ForwardingRepository(LeaseRepository delegate) {
    this.delegate = delegate;
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    return delegate.load(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return delegate.loadAll();
  }

  @Override
  public void save(LeaseWrite write) {
    delegate.save(write);
  }

  @Override
  public Fence lockFence(String key) throws InterruptedException {
    return delegate.lockFence(key);
  }
}
