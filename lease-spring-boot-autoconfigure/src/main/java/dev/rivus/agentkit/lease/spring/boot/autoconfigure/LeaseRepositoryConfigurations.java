/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The store, unless the application has a {@link LeaseRepository} bean of its own: on the
 * application's one DataSource when lease-jdbc is present, else SQLite at {@code lease.sqlite.path}
 * when lease-sqlite is. Tried in that order.
 */
final class LeaseRepositoryConfigurations {

  private LeaseRepositoryConfigurations() {}

  /** Leases in the application's database, for instances on many machines. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(JdbcLeaseRepository.class)
  @ConditionalOnSingleCandidate(DataSource.class)
  @ConditionalOnMissingBean(LeaseRepository.class)
  static class Jdbc {

    @Bean
    JdbcLeaseRepository leaseRepository(DataSource dataSource, LeaseProperties properties) {
      return JdbcLeaseRepository.open(
          dataSource,
          JdbcOptions.builder()
              .tableName(properties.getJdbc().getTableName())
              .createIfMissing(properties.getJdbc().isCreateTable())
              .build());
    }
  }

  /** Leases in a SQLite file, for instances on one machine. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(SqliteLeaseRepository.class)
  @ConditionalOnMissingBean(LeaseRepository.class)
  static class Sqlite {

    @Bean(destroyMethod = "close")
    SqliteLeaseRepository leaseRepository(LeaseProperties properties) {
      return SqliteLeaseRepository.open(properties.getSqlite().getPath());
    }
  }
}
