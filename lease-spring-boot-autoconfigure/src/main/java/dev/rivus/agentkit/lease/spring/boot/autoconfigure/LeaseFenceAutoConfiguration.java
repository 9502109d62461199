/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.spring.LeaseFence;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * With the leases in the application's database (lease-jdbc's {@link JdbcLeaseRepository}, on its
 * one {@link DataSource}) and spring-jdbc present: the {@link LeaseFence} of its Spring
 * transactions. After {@link LeaseAutoConfiguration}, whose repository it fences.
 */
@AutoConfiguration(after = LeaseAutoConfiguration.class)
@ConditionalOnClass(
    name = {
      "dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository",
      "org.springframework.jdbc.datasource.DataSourceUtils",
      "org.springframework.transaction.support.TransactionSynchronizationManager"
    })
@ConditionalOnSingleCandidate(JdbcLeaseRepository.class)
public class LeaseFenceAutoConfiguration {

  /** Made by Spring Boot. */
  public LeaseFenceAutoConfiguration() {}

  /**
   * The fence of the application's transactions, for {@code LeaseFence.verify()} and
   * {@code @Leased(fencedTransaction = true)}.
   *
   * @param repository the store of the leases, which must be on {@code dataSource}
   * @param dataSource the application's DataSource, whose transactions are fenced
   * @return the fence
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnSingleCandidate(DataSource.class)
  public LeaseFence leaseFence(JdbcLeaseRepository repository, DataSource dataSource) {
    return new LeaseFence(repository, dataSource);
  }
}
