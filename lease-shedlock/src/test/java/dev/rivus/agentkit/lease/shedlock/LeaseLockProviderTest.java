/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the provider does beyond ShedLock's suite: a second manager on the same store (another
 * instance of the application) is kept out for {@code lockAtLeastFor} and let in at {@code
 * lockAtMostFor} or at the unlock; the token is the lease's generation.
 */
class LeaseLockProviderTest {

  private static final String JOB = "report";

  private final AtomicBoolean storeFails = new AtomicBoolean();
  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final ForwardingLeaseRepository failing =
      new ForwardingLeaseRepository(store) {
        @Override
        public Optional<LeaseSnapshot> load(String key) {
          if (storeFails.get()) {
            throw new LeaseRepositoryFailure(key, "the test's store is down", null);
          }
          return super.load(key);
        }
      };
  private final LeaseManager leases = LeaseManager.builder(failing).name("one").build();
  private final LeaseManager otherLeases = LeaseManager.builder(store).name("two").build();
  private final LeaseLockProvider provider = new LeaseLockProvider(leases);
  private final LeaseLockProvider otherProvider = new LeaseLockProvider(otherLeases);

  @AfterEach
  void close() {
    provider.close();
    otherProvider.close();
    leases.close();
    otherLeases.close();
  }

  @Test
  void keepsASecondManagerOutUntilLockAtLeastForHasPassed() {
    long lockedAt = System.nanoTime();
    SimpleLock lock =
        provider.lock(config(JOB, Duration.ofMinutes(1), Duration.ofSeconds(1))).get();

    lock.unlock();

    assertThatThrownBy(() -> otherLeases.acquire(JOB)).isInstanceOf(LeaseHeld.class);
    assertThat(otherProvider.lock(config(JOB))).isEmpty();
    SimpleLock next =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> otherProvider.lock(config(JOB)), Optional::isPresent)
            .get();
    assertThat(Duration.ofNanos(System.nanoTime() - lockedAt))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    next.unlock();
  }

  @Test
  void endsTheLeaseAtLockAtMostForWhileTheJobStillRuns() {
    SimpleLock lock = provider.lock(config(JOB, Duration.ofMillis(300), Duration.ZERO)).get();
    assertThat(provider.currentToken()).isPresent();

    SimpleLock taken =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> otherProvider.lock(config(JOB)), Optional::isPresent)
            .get();

    assertThat(provider.currentToken()).isEmpty();
    lock.unlock(); // the job ends late: its lock is gone already, and the unlock does nothing
    assertThat(store.load(JOB)).map(LeaseSnapshot::isHeld).contains(true);
    taken.unlock();
  }

  @Test
  void releasesAtOnceOnUnlockAfterLockAtLeastFor() {
    SimpleLock lock = provider.lock(config(JOB)).get();

    lock.unlock();

    try (Lease lease = otherLeases.acquire(JOB)) {
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void givesTheJobTheLeasesGenerationAsItsToken() throws Exception {
    SimpleLock first = provider.lock(config(JOB)).get();
    long firstToken = provider.currentToken().getAsLong();
    assertThat(firstToken).isEqualTo(store.load(JOB).get().generation());
    assertThat(provider.currentLease()).map(Lease::generation).contains(firstToken);
    assertThat(CompletableFuture.supplyAsync(provider::currentToken).get()).isEmpty();
    first.unlock();
    assertThat(provider.currentToken()).isEmpty();

    SimpleLock second = otherProvider.lock(config(JOB)).get();
    long secondToken = otherProvider.currentToken().getAsLong();
    second.unlock();
    SimpleLock third = provider.lock(config(JOB)).get();
    OptionalLong thirdToken = provider.currentToken();
    third.unlock();

    assertThat(secondToken).isGreaterThan(firstToken);
    assertThat(thirdToken.getAsLong()).isGreaterThan(secondToken);
  }

  @Test
  void givesTheInnermostLocksTokenWhenLocksNest() {
    SimpleLock outer = provider.lock(config("outer")).get();
    long outerToken = provider.currentToken().getAsLong();
    SimpleLock inner = provider.lock(config("inner")).get();

    assertThat(provider.currentLease()).map(Lease::key).contains("inner");
    inner.unlock();
    assertThat(provider.currentToken()).hasValue(outerToken);
    outer.unlock();
  }

  @Test
  void keepsTheGenerationWhenExtended() {
    SimpleLock lock = provider.lock(config(JOB, Duration.ofSeconds(30), Duration.ZERO)).get();
    long token = provider.currentToken().getAsLong();

    SimpleLock extended = lock.extend(Duration.ofMinutes(5), Duration.ZERO).get();

    assertThat(provider.currentToken()).hasValue(token);
    assertThatThrownBy(lock::unlock)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already unlocked or extended");
    extended.unlock();
    assertThat(store.load(JOB)).map(LeaseSnapshot::isHeld).contains(false);
  }

  @Test
  void throwsAStoreFailureAsShedLocksLockException() {
    storeFails.set(true);

    assertThatThrownBy(() -> provider.lock(config(JOB)))
        .isInstanceOf(LockException.class)
        .hasMessageContaining("could not lock 'report'")
        .hasCauseInstanceOf(LeaseRepositoryFailure.class);

    storeFails.set(false);
    provider.lock(config(JOB)).get().unlock(); // nothing of the failed try is left behind
  }

  @Test
  void takesANameOfTheLongestKeyAndRefusesALongerOne() {
    String longest = "n".repeat(LeaseKeys.MAX_LENGTH);
    provider.lock(config(longest)).get().unlock();

    assertThatThrownBy(() -> provider.lock(config(longest + "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1025 UTF-16 code units")
        .hasMessageContaining("never shortened");
  }

  @Test
  void releasesItsLeasesAndRefusesLocksOnceClosed() {
    provider.lock(config(JOB, Duration.ofMinutes(1), Duration.ofMinutes(1))).get().unlock();

    provider.close();

    try (Lease lease = otherLeases.acquire(JOB)) {
      assertThat(lease.isHeld()).isTrue();
    }
    assertThatThrownBy(() -> provider.lock(config(JOB)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  private static LockConfiguration config(String name) {
    return config(name, Duration.ofMinutes(5), Duration.ZERO);
  }

  private static LockConfiguration config(
      String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
    return new LockConfiguration(Instant.now(), name, lockAtMostFor, lockAtLeastFor);
  }
}
