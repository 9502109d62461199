/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.shedlock.LeaseLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With lease-shedlock and ShedLock present: ShedLock's {@link LockProvider} on the application's
 * lease manager ({@link LeaseLockProvider}), so that {@code @SchedulerLock} jobs run under leases,
 * unless the application has a lock provider of its own. After {@link LeaseAutoConfiguration},
 * whose manager it uses.
 */
@AutoConfiguration(after = LeaseAutoConfiguration.class)
@ConditionalOnClass(
    name = {
      "dev.rivus.agentkit.lease.shedlock.LeaseLockProvider",
      "net.javacrumbs.shedlock.core.LockProvider"
    })
@ConditionalOnBean(LeaseManager.class)
public class LeaseShedLockAutoConfiguration {

  /** Made by Spring Boot. */
  public LeaseShedLockAutoConfiguration() {}

  /**
   * ShedLock's lock provider on the application's manager; inject it as {@link LeaseLockProvider}
   * for the running job's fencing token ({@link LeaseLockProvider#currentToken()}).
   *
   * @param manager the application's manager
   * @return the provider; closed when the context closes, before the manager, releasing the locks
   *     it still holds
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(LockProvider.class)
  public LeaseLockProvider leaseLockProvider(LeaseManager manager) {
    return new LeaseLockProvider(manager);
  }
}
