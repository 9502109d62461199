/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseManagerBuilder;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.micrometer.LeaseMetrics;
import dev.rivus.agentkit.lease.spring.HoldAtLeast;
import dev.rivus.agentkit.lease.spring.LeaseManagers;
import dev.rivus.agentkit.lease.spring.LeasedBeanPostProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * The lease manager of a Spring Boot application, on the store that {@link
 * LeaseRepositoryConfigurations} offers (or the application's own {@link LeaseRepository} bean),
 * with every {@link LeaseListener} bean attached and, with lease-micrometer present, {@link
 * LeaseMetrics}; and {@link dev.rivus.agentkit.lease.spring.Leased} methods.
 *
 * <p>The manager depends on the repository, which depends on the DataSource, so Spring closes the
 * manager first at shutdown: its releases reach the database before the pool closes.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
    })
@EnableConfigurationProperties(LeaseProperties.class)
@Import({LeaseRepositoryConfigurations.Jdbc.class, LeaseRepositoryConfigurations.Sqlite.class})
public class LeaseAutoConfiguration {

  /** Made by Spring Boot. */
  public LeaseAutoConfiguration() {}

  /**
   * The application's lease manager.
   *
   * @param repository the store
   * @param properties {@code lease.*}
   * @param environment for {@code spring.application.name}
   * @param listeners every {@link LeaseListener} bean, metrics included
   * @return the manager, closed when the context closes
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnBean(LeaseRepository.class)
  public LeaseManager leaseManager(
      LeaseRepository repository,
      LeaseProperties properties,
      Environment environment,
      ObjectProvider<LeaseListener> listeners) {
    LeaseManagerBuilder builder = LeaseManager.builder(repository);
    if (properties.getTtl() != null) {
      builder.ttl(properties.getTtl());
    }
    if (properties.getHeartbeat() != null) {
      builder.heartbeat(properties.getHeartbeat());
    }
    String name = ManagerNames.of(properties.getName(), environment);
    if (name != null) {
      builder.name(name);
    }
    LeaseListener listener = Listeners.of(listeners.orderedStream().toList());
    if (listener != null) {
      builder.listener(listener);
    }
    return builder.build();
  }

  /**
   * Keeps leases of {@code @Leased(holdAtLeast = ...)} methods until their time.
   *
   * @return the keeper, which releases what it still keeps when the context closes
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public HoldAtLeast leaseHoldAtLeast() {
    return new HoldAtLeast();
  }

  /**
   * Proxies beans with {@code @Leased} methods.
   *
   * @param managers the managers, asked for at the first call
   * @param holds the keeper of held-at-least leases
   * @return the post-processor
   */
  @Bean
  @ConditionalOnMissingBean
  public static LeasedBeanPostProcessor leasedBeanPostProcessor(
      ObjectProvider<LeaseManagers> managers, ObjectProvider<HoldAtLeast> holds) {
    return new LeasedBeanPostProcessor(managers::getObject, holds::getObject);
  }

  /**
   * The managers of {@code @Leased} methods: the application's, and for each distinct {@code ttl}
   * one on the same store, with the same listeners, named after the application's manager. Without
   * a single {@link LeaseRepository} bean (an application's own manager on a store of its own),
   * there is only the application's manager, and a method with a TTL of its own fails.
   *
   * @param manager the application's manager
   * @param repository the store of the managers it makes
   * @param properties {@code lease.heartbeat}
   * @param listeners every {@link LeaseListener} bean, metrics included
   * @return the managers; closed when the context closes, before the application's manager and so
   *     before the store and its DataSource
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnBean(LeaseManager.class)
  public LeaseManagers leaseManagers(
      LeaseManager manager,
      ObjectProvider<LeaseRepository> repository,
      LeaseProperties properties,
      ObjectProvider<LeaseListener> listeners) {
    LeaseRepository store = repository.getIfUnique();
    if (store == null) {
      return LeaseManagers.only(manager);
    }
    return new LeaseManagers(
        manager,
        new TtlManagers(
            store,
            manager.name(),
            properties.getHeartbeat(),
            Listeners.of(listeners.orderedStream().toList())));
  }

  /** The metrics, when lease-micrometer is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({LeaseMetrics.class, io.micrometer.core.instrument.MeterRegistry.class})
  static class Metrics {

    /**
     * The metrics of the application's lease manager; Spring Boot binds them to its registries.
     *
     * @return the metrics, a listener of the manager
     */
    @Bean
    @ConditionalOnMissingBean
    LeaseMetrics leaseMetrics() {
      return LeaseMetrics.create();
    }
  }
}
