/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.testkit.PrunableLeaseRepositoryContract;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;

/**
 * The shared repository contract, pruning included, on a fresh table of a database server per test,
 * dropped after. The second instance has a pool of its own. A key lock is lost as a dropped
 * connection loses it: its session ended by the server.
 */
abstract class JdbcLeaseRepositoryContractTest extends PrunableLeaseRepositoryContract {

  /** The server this test runs on. */
  abstract TestServer server();

  private final List<HikariDataSource> pools = new ArrayList<>();
  private @Nullable String table;
  private @Nullable LeaseRepository primary;

  private JdbcOptions.Builder options() {
    if (table == null) {
      throw new IllegalStateException("no table: createRepository() has not run");
    }
    return JdbcOptions.builder().tableName(table);
  }

  @Override
  protected PrunableLeaseRepository createRepository() {
    server().requireReachable();
    table = TestServer.freshTableName();
    HikariDataSource pool = server().pool();
    pools.add(pool);
    JdbcLeaseRepository created =
        JdbcLeaseRepository.open(pool, options().createIfMissing(true).build());
    primary = created;
    return created;
  }

  @Override
  protected LeaseRepository openSecondInstance() {
    HikariDataSource pool = server().pool();
    pools.add(pool);
    return JdbcLeaseRepository.open(pool, options().build());
  }

  @Override
  protected void closeRepository(LeaseRepository repository) throws Exception {
    repository.close();
    if (repository == primary) {
      // The first repository is closed last: every pool goes, then the table.
      for (HikariDataSource pool : pools) {
        pool.close();
      }
      pools.clear();
      if (table != null) {
        server().drop(table);
      }
    }
  }

  @Override
  protected boolean loseKeyLock(LeaseRepository.KeyLock keyLock) throws Exception {
    server().endSession(((JdbcKeyLock) keyLock).backendPid());
    Awaitility.await().until(() -> !keyLock.isHeld());
    return true;
  }
}
