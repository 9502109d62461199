/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import java.util.Locale;

/**
 * Opens the JDBC repository on an existing table of a test server, in the test JVM or a child. The
 * spec is the {@link TestServer}'s name and the table's, as {@link #spec} writes them: {@code
 * POSTGRES/lease_t_0123abcd}. A child reaches the server by the same URL as its parent, since it
 * inherits the parent's environment; closing the repository closes its pool.
 */
public final class JdbcRepositoryFactory implements RepositoryFactory {

  /** For {@link RepositoryFactory#byClassName(String)}. */
  public JdbcRepositoryFactory() {}

  /** The spec of {@code table} on {@code server}. */
  static String spec(TestServer server, String table) {
    return server.name() + "/" + table;
  }

  @Override
  public LeaseRepository open(String spec) {
    int slash = spec.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("a spec is SERVER/table, was '" + spec + "'");
    }
    TestServer server = TestServer.valueOf(spec.substring(0, slash).toUpperCase(Locale.ROOT));
    JdbcOptions options = JdbcOptions.builder().tableName(spec.substring(slash + 1)).build();
    HikariDataSource pool = server.pool();
    try {
      return new PoolClosing(JdbcLeaseRepository.open(pool, options), pool);
    } catch (RuntimeException | Error e) {
      pool.close();
      throw e;
    }
  }

  /** The repository, and its pool closed after it. */
  private static final class PoolClosing extends ForwardingLeaseRepository {
    private final HikariDataSource pool;

    PoolClosing(LeaseRepository delegate, HikariDataSource pool) {
      super(delegate);
      this.pool = pool;
    }

    @Override
    public void close() {
      try {
        super.close();
      } finally {
        pool.close();
      }
    }
  }
}
