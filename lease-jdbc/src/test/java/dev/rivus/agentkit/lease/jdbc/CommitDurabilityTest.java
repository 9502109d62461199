/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Which writes wait for the flush: acquisitions always (the generation must never go back after a
 * crash of the database); on PostgreSQL, renewals and releases set {@code synchronous_commit} off
 * for their own transaction. Seen in the statements the repository prepares.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class CommitDurabilityTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void onlyRenewalsAndReleasesCommitWithoutWaitingForTheFlush(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      List<String> statements = new CopyOnWriteArrayList<>();
      DataSource recording = recording(db.pool, statements);
      try (JdbcLeaseRepository repository = JdbcLeaseRepository.create(recording, db.options());
          LeaseManager manager =
              LeaseManager.builder(repository)
                  .ttl(Duration.ofSeconds(10))
                  .heartbeat(Duration.ofMillis(100))
                  .build()) {
        Lease lease = manager.acquire("durability");
        Awaitility.await().until(() -> writesKeepingTheGeneration(statements) >= 2);
        lease.close();
      }

      List<String> acquisitions =
          statements.stream().filter(sql -> sql.contains(db.table + "_fence (")).toList();
      List<String> renewalsAndReleases =
          statements.stream().filter(sql -> sql.contains("AND generation = ?")).toList();
      assertThat(acquisitions).isNotEmpty();
      assertThat(renewalsAndReleases).isNotEmpty();
      assertThat(acquisitions).noneMatch(sql -> sql.contains("synchronous_commit"));
      if (server == TestServer.POSTGRES) {
        assertThat(renewalsAndReleases)
            .allMatch(sql -> sql.contains("set_config('synchronous_commit', 'off', true)"));
      } else {
        assertThat(renewalsAndReleases).noneMatch(sql -> sql.contains("synchronous_commit"));
      }
    }
  }

  private static long writesKeepingTheGeneration(List<String> statements) {
    return statements.stream().filter(sql -> sql.contains("AND generation = ?")).count();
  }

  /** A data source whose connections record the SQL of every statement they prepare. */
  private static DataSource recording(DataSource target, List<String> statements) {
    InvocationHandler dataSource =
        (proxy, method, args) -> {
          Object result = invoke(target, method, args);
          if (result instanceof Connection connection) {
            return Proxy.newProxyInstance(
                CommitDurabilityTest.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (p, m, a) -> {
                  if (m.getName().equals("prepareStatement")) {
                    statements.add((String) a[0]);
                  }
                  return invoke(connection, m, a);
                });
          }
          return result;
        };
    return (DataSource)
        Proxy.newProxyInstance(
            CommitDurabilityTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            dataSource);
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
