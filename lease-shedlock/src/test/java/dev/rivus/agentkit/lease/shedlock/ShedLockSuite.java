/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * ShedLock's own suite for extensible lock providers, run against {@link LeaseLockProvider} on the
 * store a subclass opens. Locked means the store's record of the key is held.
 */
abstract class ShedLockSuite extends AbstractExtensibleLockProviderIntegrationTest {

  private LeaseRepository repository;
  private LeaseManager leases;
  private LeaseLockProvider provider;

  /** Opens a fresh, empty store for one test. */
  abstract LeaseRepository openRepository() throws Exception;

  /** Cleans up after the store is closed. */
  void afterClose() throws Exception {}

  @BeforeEach
  void openProvider() throws Exception {
    repository = openRepository();
    leases = LeaseManager.builder(repository).build();
    provider = new LeaseLockProvider(leases);
  }

  @AfterEach
  void closeProvider() throws Exception {
    try (LeaseRepository closingRepository = repository;
        LeaseManager closingLeases = leases;
        LeaseLockProvider closingProvider = provider) {
      // closed in reverse order: provider, manager, repository
    }
    afterClose();
  }

  @Override
  protected ExtensibleLockProvider getLockProvider() {
    return provider;
  }

  @Override
  protected void assertLocked(String lockName) {
    assertThat(repository.load(lockName)).map(LeaseSnapshot::isHeld).contains(true);
  }

  @Override
  protected void assertUnlocked(String lockName) {
    assertThat(repository.load(lockName).filter(LeaseSnapshot::isHeld)).isEmpty();
  }
}
