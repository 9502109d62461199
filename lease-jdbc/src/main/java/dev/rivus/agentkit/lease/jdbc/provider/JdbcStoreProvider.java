/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.spi.LeaseStoreProvider;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.util.List;

/**
 * The {@code jdbc:} store: a lease table of a shared PostgreSQL or MariaDB database, named by the
 * driver's whole URL ({@code jdbc:postgresql://HOST[:PORT]/DATABASE[?PARAMETERS]}, {@code
 * jdbc:mariadb://...}), opened on a small HikariCP pool of its own that closing the repository
 * closes. The user and password come from the URL ({@code //user:password@host} or its parameters),
 * else from the settings {@code user} and {@code password}; the setting {@code table} names the
 * table (default {@code lease_records}), and {@code create-table=false} leaves the schema to
 * migrations. A request that may not create the store never creates the table.
 *
 * <p>HikariCP is an optional dependency of {@code lease-jdbc}: opening fails with a clear message
 * without it. Neither this class nor its construction loads a JDBC, pool or driver class; {@link
 * #open} is the first to. Thread-safe: it keeps no state.
 */
public final class JdbcStoreProvider implements LeaseStoreProvider {

  /** The scheme of this store: the driver URL's own. */
  public static final String SCHEME = "jdbc";

  private static final String POOL_CLASS = "com.zaxxer.hikari.HikariDataSource";

  /** For {@link java.util.ServiceLoader}. */
  public JdbcStoreProvider() {}

  @Override
  public String scheme() {
    return SCHEME;
  }

  /**
   * {@inheritDoc}
   *
   * @throws LeaseRepositoryFailure also if HikariCP is not installed beside {@code lease-jdbc}
   */
  @Override
  public LeaseRepository open(StoreRequest request) {
    requirePool();
    // The pool's classes are named in PooledJdbcOpening only, reached from here.
    return PooledJdbcOpening.open(request);
  }

  /** The password of the URL's user part and of every parameter whose name looks secret. */
  @Override
  public List<String> secretsIn(String uri) {
    return JdbcUrl.secretsIn(uri);
  }

  private static void requirePool() {
    try {
      Class.forName(POOL_CLASS, false, JdbcStoreProvider.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new LeaseRepositoryFailure(
          null,
          "a jdbc: store needs HikariCP (com.zaxxer:HikariCP), an optional dependency of"
              + " lease-jdbc: put its jar on the class path (on the module path, add"
              + " --add-modules com.zaxxer.hikari)",
          e);
    }
  }
}
