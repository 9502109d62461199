/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.micrometer.LeaseMetrics;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.nio.file.Path;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Which store and manager the auto-configuration offers, and that it closes them in order. */
class LeaseAutoConfigurationTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class));

  @TempDir Path directory;

  @Test
  void withoutADataSourceTheStoreIsSqliteAtItsPath() {
    Path database = directory.resolve("app-leases.db");
    runner
        .withPropertyValues("lease.sqlite.path=" + database, "lease.ttl=10s")
        .run(
            context -> {
              assertThat(context).hasSingleBean(SqliteLeaseRepository.class);
              LeaseManager manager = context.getBean(LeaseManager.class);
              assertThat(manager.config().ttl()).isEqualTo(Duration.ofSeconds(10));
              assertThat(manager.config().heartbeat()).isEqualTo(Duration.ofMillis(2_500));
              manager.acquire("job").close();
              assertThat(database).exists();
            });
  }

  @Test
  void theApplicationsOwnRepositoryWins() {
    runner
        .withUserConfiguration(OwnRepository.class)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(SqliteLeaseRepository.class);
              assertThat(context.getBean(LeaseRepository.class))
                  .isSameAs(context.getBean(OwnRepository.class).repository);
            });
  }

  @Test
  void theManagerIsNamedAfterTheApplicationAndHasMetrics() {
    runner
        .withUserConfiguration(OwnRepository.class)
        .withPropertyValues("spring.application.name=billing job")
        .run(
            context -> {
              assertThat(context.getBean(LeaseManager.class).name()).isEqualTo("billing-job");
              assertThat(context).hasSingleBean(LeaseMetrics.class);
            });
    runner
        .withUserConfiguration(OwnRepository.class)
        .withPropertyValues("spring.application.name=billing", "lease.name=reports")
        .run(
            context -> assertThat(context.getBean(LeaseManager.class).name()).isEqualTo("reports"));
  }

  @Test
  void anInvalidTtlFailsTheStartWithTheLibrarysMessage() {
    runner
        .withUserConfiguration(OwnRepository.class)
        .withPropertyValues("lease.ttl=10ms")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("TTL"));
  }

  @ParameterizedTest
  @EnumSource(SharedServer.class)
  void onADatabaseTheStoreIsTheDataSourceAndLeasesAreReleasedBeforeItCloses(SharedServer server) {
    server.requireReachable();
    String table = SharedServer.freshTableName("lease_boot_");
    try {
      long[] generation = new long[1];
      HikariDataSource[] owned = new HikariDataSource[1];
      runner
          // The context owns the pool and closes it (HikariDataSource.close, inferred).
          .withBean(DataSource.class, () -> owned[0] = pool(server))
          .withPropertyValues("lease.jdbc.table-name=" + table)
          .run(
              context -> {
                assertThat(context).hasSingleBean(JdbcLeaseRepository.class);
                assertThat(context).doesNotHaveBean(SqliteLeaseRepository.class);
                Lease lease = context.getBean(LeaseManager.class).acquire("nightly");
                generation[0] = lease.generation();
                // Left held: the context's close must release it before the pool is gone.
              });
      assertThat(owned[0].isClosed()).isTrue();
      try (HikariDataSource pool = pool(server)) {
        JdbcLeaseRepository reader =
            JdbcLeaseRepository.open(pool, JdbcOptions.builder().tableName(table).build());
        LeaseSnapshot record = reader.load("nightly").orElseThrow();
        assertThat(record.generation()).isEqualTo(generation[0]);
        assertThat(record.isHeld()).isFalse();
      }
    } finally {
      dropQuietly(server, table);
    }
  }

  @Test
  void withCreateTableOffAMissingTableIsReportedAtTheFirstUse() {
    SharedServer.POSTGRES.requireReachable();
    String table = SharedServer.freshTableName("lease_boot_");
    try (HikariDataSource pool = pool(SharedServer.POSTGRES)) {
      runner
          .withBean(DataSource.class, () -> pool, definition -> definition.setDestroyMethodName(""))
          .withPropertyValues("lease.jdbc.table-name=" + table, "lease.jdbc.create-table=false")
          .run(
              context -> {
                assertThat(SharedServer.POSTGRES.hasTable(table)).isFalse();
                assertThat(context).hasFailed();
                assertThat(context).getFailure().rootCause().hasMessageContaining(table);
              });
    }
  }

  private static HikariDataSource pool(SharedServer server) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server.url());
    config.setMaximumPoolSize(8);
    return new HikariDataSource(config);
  }

  private static void dropQuietly(SharedServer server, String table) {
    try {
      server.dropLeaseTable(table);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnRepository {
    final MemoryLeaseRepository repository = new MemoryLeaseRepository();

    @Bean
    LeaseRepository leaseRepository() {
      return repository;
    }
  }
}
