/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A JDBC lease repository with a pool of its own: every call goes to the repository, and {@link
 * #close()} closes the pool too, which {@link JdbcLeaseRepository} leaves to the pool's owner
 * (here, the command). Thread-safe.
 */
final class PooledJdbcRepository implements PrunableLeaseRepository {

  private final JdbcLeaseRepository repository;
  private final HikariDataSource pool;
  private final String where;

  /**
   * Wraps an open repository.
   *
   * @param repository the repository on {@code pool}
   * @param pool the pool, closed with this repository
   * @param where the database, for messages, without secrets
   */
  PooledJdbcRepository(JdbcLeaseRepository repository, HikariDataSource pool, String where) {
    this.repository = repository;
    this.pool = pool;
    this.where = where;
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
  public KeyLock lockKey(String key) throws InterruptedException {
    return repository.lockKey(key);
  }

  /** Closes the repository, then the pool and its connections. */
  @Override
  public void close() {
    try {
      repository.close();
    } finally {
      pool.close();
    }
  }

  @Override
  public String toString() {
    return "the lease table '" + repository.tableName() + "' in the " + where;
  }
}
