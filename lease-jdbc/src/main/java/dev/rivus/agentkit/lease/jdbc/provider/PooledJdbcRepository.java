/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A JDBC lease repository with a pool of its own: every call goes to the repository, and {@link
 * #close()} closes the pool too, which {@link JdbcLeaseRepository} leaves to the pool's owner
 * (here, the command). Key locks are taken through a second repository on the same table, over a
 * pool of their own made on the first key lock: a key lock's long-held connection never takes one
 * that the renewals or the main thread need. Thread-safe.
 */
final class PooledJdbcRepository implements PrunableLeaseRepository {

  private final JdbcLeaseRepository repository;
  private final HikariDataSource pool;
  private final String where;
  private final Supplier<KeyLocks> keyLocksOpener;
  private @Nullable KeyLocks keyLocks; // guarded by this
  private boolean closed; // guarded by this

  /** The repository of key locks and its pool. */
  record KeyLocks(JdbcLeaseRepository repository, HikariDataSource pool) {}

  /**
   * Wraps an open repository.
   *
   * @param repository the repository on {@code pool}
   * @param pool the pool, closed with this repository
   * @param where the database, for messages, without secrets
   * @param keyLocks opens the key locks' repository and pool, once, on the first key lock
   */
  PooledJdbcRepository(
      JdbcLeaseRepository repository,
      HikariDataSource pool,
      String where,
      Supplier<KeyLocks> keyLocks) {
    this.repository = repository;
    this.pool = pool;
    this.where = where;
    this.keyLocksOpener = keyLocks;
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    return repository.load(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return repository.loadAll();
  }

  @Override
  public Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
    return repository.loadAll(keys);
  }

  @Override
  public void save(LeaseWrite write) {
    repository.save(write);
  }

  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    return repository.saveAll(writes);
  }

  @Override
  public int prune(Duration olderThan) {
    return repository.prune(olderThan);
  }

  @Override
  public Optional<KeyWatch> watchKey(String key) {
    return repository.watchKey(key);
  }

  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    return keyLocks().lockKey(key);
  }

  @Override
  public KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
    return keyLocks().lockKey(key, silenceLimit);
  }

  private synchronized JdbcLeaseRepository keyLocks() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    if (keyLocks == null) {
      keyLocks = keyLocksOpener.get();
    }
    return keyLocks.repository();
  }

  /** Closes the repositories, then the pools and their connections. */
  @Override
  public void close() {
    KeyLocks opened;
    synchronized (this) {
      closed = true;
      opened = keyLocks;
    }
    try {
      repository.close();
    } finally {
      try {
        pool.close();
      } finally {
        if (opened != null) {
          opened.pool().close();
        }
      }
    }
  }

  @Override
  public String toString() {
    return "the lease table '" + repository.tableName() + "' in the " + where;
  }
}
