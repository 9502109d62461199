/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.integration.support.locks.LockRegistry;

/** How lock keys name leases, and the registry's bookkeeping; the lock contract is elsewhere. */
class LeaseLockRegistryTest {

  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();
  private final LeaseManager manager = LeaseManager.builder(repository).name("keys").build();

  @AfterEach
  void closeManager() {
    manager.close();
  }

  @Test
  void aLockKeyIsItsLeaseKeyOrFollowsTheRegion() {
    assertThat(new LeaseLockRegistry(manager).leaseKey("task:42")).isEqualTo("task:42");
    assertThat(new LeaseLockRegistry(manager, "billing").leaseKey("42")).isEqualTo("billing:42");
    assertThat(new LeaseLockRegistry(manager, "billing").obtain("42").key())
        .isEqualTo("billing:42");
    assertThat(new LeaseLockRegistry(manager).manager()).isSameAs(manager);
  }

  @Test
  void aRegionsLockExcludesAPlainHolderOfTheSameLeaseKey() {
    LeaseLock lock = new LeaseLockRegistry(manager, "billing").obtain("42");
    try (LeaseManager elsewhere = LeaseManager.builder(repository).name("elsewhere").build()) {
      lock.lock();
      try {
        assertThatThrownBy(() -> elsewhere.acquire("billing:42")).isInstanceOf(LeaseHeld.class);
      } finally {
        lock.unlock();
      }
      try (Lease lease = elsewhere.acquire("billing:42")) {
        assertThat(lease.isHeld()).isTrue();
      }
    }
  }

  @Test
  void keysOfOtherTypesAreRefusedRatherThanMergedByTheirStrings() {
    LeaseLockRegistry registry = new LeaseLockRegistry(manager);

    assertThatThrownBy(() -> registry.obtain(42))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock keys must be strings, was a java.lang.Integer (42)");
    assertThatThrownBy(() -> registry.obtain(UUID.randomUUID()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.util.UUID");
    assertThatThrownBy(() -> registry.obtain(new StringBuilder("42")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.StringBuilder");
    assertThatThrownBy(() -> registry.obtain(nullKey()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("lockKey");
  }

  @Test
  void keysTheLeaseRuleRefusesAreRefusedNotShortened() {
    LeaseLockRegistry registry = new LeaseLockRegistry(manager, "billing");
    String longest = "k".repeat(LeaseKeys.MAX_LENGTH - "billing:".length());
    assertThat(registry.obtain(longest).key()).hasSize(LeaseKeys.MAX_LENGTH);

    assertThatThrownBy(() -> registry.obtain(longest + "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot name a lease after the region prefix 'billing:'")
        .hasMessageContaining("the maximum is " + LeaseKeys.MAX_LENGTH);
    assertThatThrownBy(() -> new LeaseLockRegistry(manager).obtain(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be empty");
  }

  @Test
  void regionsHoldNoColonAndLeaveRoomForAKey() {
    assertThatThrownBy(() -> new LeaseLockRegistry(manager, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("region must be one or more characters without ':'");
    assertThatThrownBy(() -> new LeaseLockRegistry(manager, "a:b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 'a:b'");
    assertThatThrownBy(() -> new LeaseLockRegistry(manager, "r".repeat(LeaseKeys.MAX_LENGTH - 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaves no room");
    assertThat(
            new LeaseLockRegistry(manager, "r".repeat(LeaseKeys.MAX_LENGTH - 2)).obtain("k").key())
        .hasSize(LeaseKeys.MAX_LENGTH);
  }

  @Test
  void keepsStateOnlyForKeysInUse() {
    LeaseLockRegistry registry = new LeaseLockRegistry(manager);
    registry.obtain("idle");
    LeaseLock held = registry.obtain("held");
    held.lock();
    assertThat(registry.toString()).contains("keys in use=1");
    assertThat(held.toString()).contains("held").contains("Locked by thread");
    held.unlock();

    assertThat(registry.toString()).contains("keys in use=0");
    assertThat(held.toString()).contains("unused");
  }

  @Test
  @SuppressWarnings("rawtypes") // LockRegistry<L> on Spring Integration 7.0, LockRegistry on 6.5
  void isASpringIntegrationLockRegistry() {
    LockRegistry spring = new LeaseLockRegistry(manager);
    assertThat(spring.obtain("job")).isInstanceOf(LeaseLock.class);
  }

  @SuppressWarnings("NullAway") // a caller outside null-checked code may pass null
  private static Object nullKey() {
    return null;
  }
}
