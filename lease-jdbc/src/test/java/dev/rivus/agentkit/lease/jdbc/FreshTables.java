/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fresh lease tables of one test server, created for a test and dropped when it ends. Registered
 * with {@code @RegisterExtension}, it drops them after every {@code @AfterEach} method, those of
 * superclasses included, so after a contract's own clean-up has destroyed the child JVMs and closed
 * the pools that still used them. Not thread-safe: for the test's own thread.
 */
final class FreshTables implements AfterEachCallback {

  private final TestServer server;
  private final List<String> created = new ArrayList<>();

  FreshTables(TestServer server) {
    this.server = server;
  }

  /**
   * Creates a lease table under a fresh name, skipping the test (failing it on CI) if the server is
   * unreachable.
   *
   * @return the table's name
   */
  String create() {
    server.requireReachable();
    String table = TestServer.freshTableName();
    created.add(table);
    try (HikariDataSource pool = server.pool()) {
      JdbcLeaseRepository.open(
              pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build())
          .close();
    }
    return table;
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    List<String> dropping = new ArrayList<>(created);
    created.clear();
    for (String table : dropping) {
      server.drop(table);
    }
  }
}
