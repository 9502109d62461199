/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.spi.LeaseStores;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code jdbc:} store through {@link LeaseStores}, on each server: a URL opens a table of its
 * own pool, created unless the request may not create it, and a missing table is told in the
 * request's words.
 */
class JdbcStoreProviderTest {

  private final String table = TestServer.freshTableName();
  private TestServer used = TestServer.POSTGRES;

  @AfterEach
  void dropTheTable() throws Exception {
    if (used.isReachable()) {
      used.drop(table);
    }
  }

  private static StoreRequest.Builder request(TestServer server, String table) {
    return StoreRequest.builder(server.url()).setting("table", table);
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aUrlOpensTheTableCreatedOnFirstUseAndAReaderOpensItAgain(TestServer server)
      throws Exception {
    used = server;
    server.requireReachable();
    LeaseStores stores = LeaseStores.installed();
    long generation;
    try (LeaseRepository writer = stores.open(request(server, table).holding(true).build());
        LeaseManager leases = LeaseManager.builder(writer).build();
        Lease lease = leases.acquire("by-uri")) {
      generation = lease.generation();
      assertThat(writer).isInstanceOf(PrunableLeaseRepository.class);
      assertThat(writer.toString())
          .startsWith("the lease table '" + table + "' in the " + server.product() + " database");
    }

    try (LeaseRepository reader = stores.open(request(server, table).create(false).build())) {
      assertThat(reader.load("by-uri").orElseThrow().generation()).isEqualTo(generation);
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aReaderOfAMissingTableFailsWithoutCreatingIt(TestServer server) throws Exception {
    used = server;
    server.requireReachable();
    StoreRequest reader = request(server, table).create(false).build();

    assertThatThrownBy(() -> LeaseStores.installed().open(reader))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageStartingWith("no lease table '" + table + "' in the " + server.product())
        .hasMessageEndingWith(
            "; this request only reads an existing table; check the table and the URL's"
                + " database");
    assertThatThrownBy(() -> LeaseStores.installed().open(reader))
        .as("still missing")
        .isInstanceOf(LeaseRepositoryFailure.class);
  }
}
