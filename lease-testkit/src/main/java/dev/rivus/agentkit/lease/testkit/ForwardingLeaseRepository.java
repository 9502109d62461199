/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A repository that passes every call on to another one, for tests that change one operation (a
 * save that fails after it landed, a load that hangs) and keep the rest. {@link #saveAll} and
 * {@link #close()} are forwarded too, so the delegate's own batch and its resources are used;
 * override {@link #saveAll} to route a batch through an overridden {@link #save}. Both forms of
 * {@code lockKey} are forwarded as they are: a subclass that changes the key lock overrides both
 * (the manager calls {@link #lockKey(String, Duration)}). Thread-safe if the delegate is.
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
  public Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
    return delegate.loadAll(keys);
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
  public KeyLock lockKey(String key) throws InterruptedException {
    return delegate.lockKey(key);
  }

  @Override
  public KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
    return delegate.lockKey(key, silenceLimit);
  }

  @Override
  public Optional<KeyWatch> watchKey(String key) {
    return delegate.watchKey(key);
  }

  @Override
  public void close() {
    delegate.close();
  }

  /**
   * Saves a batch one write at a time through this repository's own {@link #save}, as the port's
   * default {@link LeaseRepository#saveAll} does: for a {@link #saveAll} override that wants its
   * overridden {@code save} to see every renewal.
   *
   * @param writes the writes
   * @return one outcome per write, in order
   */
  protected final List<SaveOutcome> saveEach(List<LeaseWrite> writes) {
    return new OneByOne().saveAll(writes);
  }

  /** Routes everything to this repository and keeps the port's default, one-by-one batch. */
  private final class OneByOne implements LeaseRepository {
    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return ForwardingLeaseRepository.this.load(key);
    }

    @Override
    public List<LeaseSnapshot> loadAll() {
      return ForwardingLeaseRepository.this.loadAll();
    }

    @Override
    public void save(LeaseWrite write) {
      ForwardingLeaseRepository.this.save(write);
    }

    @Override
    public KeyLock lockKey(String key) throws InterruptedException {
      return ForwardingLeaseRepository.this.lockKey(key);
    }

    @Override
    public KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
      return ForwardingLeaseRepository.this.lockKey(key, silenceLimit);
    }
  }
}
