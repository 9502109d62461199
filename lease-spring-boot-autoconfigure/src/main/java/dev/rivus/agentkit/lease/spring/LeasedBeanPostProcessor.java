/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;

/**
 * Proxies the beans that have {@link Leased} methods, so that those methods run under their lease
 * (see {@link LeasedInterceptor}). Its advice runs inside {@code @Async}'s, so an asynchronous
 * method takes its lease on the thread that runs it, and inside that of the proxies made before it
 * (as {@code @Transactional}'s are, by Spring's auto-proxy creator, which runs first), so a
 * {@code @Transactional @Leased} method's transaction is active when its lease is taken, for {@link
 * Leased#fencedTransaction()}. A {@link LeaseFence} bean, if there is one, is looked up at the
 * first call that needs it. Declare it in a {@code static} {@code @Bean} method; the Spring Boot
 * auto-configuration does. Thread-safe once the context has started.
 */
public final class LeasedBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

  private static final long serialVersionUID = 1L;

  private final transient Supplier<LeaseManagers> managers;
  private final transient Supplier<HoldAtLeast> holds;

  /**
   * Makes the post-processor.
   *
   * @param managers gives the managers at the first call of a {@link Leased} method
   * @param holds gives what keeps leases for their {@link Leased#holdAtLeast()}
   */
  public LeasedBeanPostProcessor(Supplier<LeaseManagers> managers, Supplier<HoldAtLeast> holds) {
    this.managers = managers;
    this.holds = holds;
    setBeforeExistingAdvisors(false);
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    super.setBeanFactory(beanFactory);
    ConfigurableBeanFactory placeholders =
        beanFactory instanceof ConfigurableBeanFactory configurable ? configurable : null;
    this.advisor =
        new DefaultPointcutAdvisor(
            new AnnotationMatchingPointcut(null, Leased.class, true),
            new LeasedInterceptor(
                managers,
                placeholders == null ? null : placeholders::resolveEmbeddedValue,
                holds,
                () -> fenceOf(beanFactory)));
  }

  /** The fence bean, looked up at a call that needs it: its class needs lease-jdbc's. */
  private static Optional<LeaseFence> fenceOf(BeanFactory beanFactory) {
    return Optional.ofNullable(beanFactory.getBeanProvider(LeaseFence.class).getIfAvailable());
  }
}
