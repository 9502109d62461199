package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import java.util.List;
import java.util.Optional;

/**
 * A repository that passes every call on to another one, for tests that change one operation (a
 * save that fails after it landed, a load that hangs) and keep the rest. {@link #saveAll} and
 * {@link #close()} are forwarded too, so the delegate's own batch and its resources are used;
 * override {@link #saveAll} to route a batch through an overridden {@link #save}. Thread-safe if
 * the delegate is.
 */
public class ForwardingLeaseRepository implements LeaseRepository {

  private final LeaseRepository delegate;

  /**
   * Creates a repository that forwards to {@code delegate}.
   *
   * @param delegate the repository that does the work
   */
  public ForwardingLeaseRepository(LeaseRepository delegate) {
    this.delegate = delegate;
  }

  /**
   * Returns the repository calls are forwarded to.
   *
   * @return the delegate
   */
  protected final LeaseRepository delegate() {
    return delegate;
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
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    return delegate.saveAll(writes);
  }

  @Override
  public Fence lockFence(String key) throws InterruptedException {
    return delegate.lockFence(key);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
