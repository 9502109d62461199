/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a {@link LeaseLockRegistry} promises on any store: {@link java.util.concurrent.locks.Lock}'s
 * contract (reentrancy, owner-only unlock, waits, timeouts, interrupts), exclusion between the
 * threads of one registry and between two registries on two managers of one store (as two
 * processes), release on the last unlock, and what a holder sees when its lease is lost. Each
 * store's test extends it with a fresh store per test.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
abstract class LeaseLockRegistryContract {

  /** Short enough that a loss is seen within a second, long enough for a slow shared machine. */
  private static final Duration TTL = Duration.ofSeconds(10);

  private static final Duration HEARTBEAT = Duration.ofMillis(250);

  private LeaseRepository repository;
  private LeaseManager firstManager;
  private LeaseManager secondManager;

  /** A registry on the first manager: this test's process. */
  LeaseLockRegistry registry;

  /** A registry on the second manager, of the same store: another process. */
  LeaseLockRegistry other;

  private final List<Worker> workers = new ArrayList<>();

  /** Opens a fresh, empty store for one test. */
  abstract LeaseRepository openRepository() throws Exception;

  /** Cleans up after the test's store was closed (its managers first). */
  void afterStoreClosed() throws Exception {}

  @BeforeEach
  void openRegistries() throws Exception {
    repository = openRepository();
    firstManager = manager("first");
    secondManager = manager("second");
    registry = new LeaseLockRegistry(firstManager);
    other = new LeaseLockRegistry(secondManager);
  }

  private LeaseManager manager(String name) {
    return LeaseManager.builder(repository).ttl(TTL).heartbeat(HEARTBEAT).name(name).build();
  }

  @AfterEach
  void closeEverything() throws Exception {
    for (Worker worker : workers) {
      worker.close();
    }
    secondManager.close();
    firstManager.close();
    repository.close();
    afterStoreClosed();
  }

  Worker worker(String name) {
    Worker worker = new Worker(name);
    workers.add(worker);
    return worker;
  }

  @Test
  void aLockedLockHandsItsHolderTheLeaseAndItsToken() {
    LeaseLock lock = registry.obtain("report");

    lock.lock();
    try {
      assertThat(lock.isHeldByCurrentThread()).isTrue();
      assertThat(lock.holdCount()).isEqualTo(1);
      assertThat(lock.lease().key()).isEqualTo("report");
      assertThat(lock.lease().isHeld()).isTrue();
      assertThat(lock.token()).isEqualTo(lock.lease().generation()).isPositive();
    } finally {
      lock.unlock();
    }

    assertThat(lock.isHeldByCurrentThread()).isFalse();
    assertThat(lock.holdCount()).isZero();
    assertThatThrownBy(lock::lease).isInstanceOf(IllegalMonitorStateException.class);
    assertThatThrownBy(lock::token).isInstanceOf(IllegalMonitorStateException.class);
  }

  @Test
  void theLockIsReentrantAndReleasesTheLeaseOnlyOnTheLastUnlock() throws Exception {
    LeaseLock lock = registry.obtain("report");
    lock.lock();
    long token = lock.token();
    assertThat(lock.tryLock()).isTrue();
    lock.lockInterruptibly();
    assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
    assertThat(lock.holdCount()).isEqualTo(4);
    assertThat(lock.token()).as("one hold, one lease").isEqualTo(token);

    for (int held = 4; held > 1; held--) {
      lock.unlock();
      assertThat(lock.holdCount()).isEqualTo(held - 1);
      assertThatThrownBy(() -> secondManager.acquire("report")).isInstanceOf(LeaseHeld.class);
    }
    lock.unlock();

    try (Lease next = secondManager.acquire("report")) {
      assertThat(next.generation()).isGreaterThan(token);
    }
  }

  @Test
  void everyLockOfOneKeyIsTheSameLock() {
    LeaseLock first = registry.obtain("report");
    LeaseLock second = registry.obtain("report");

    first.lock();
    assertThat(second.isHeldByCurrentThread()).isTrue();
    second.lock();
    assertThat(first.holdCount()).isEqualTo(2);
    assertThat(second.token()).isEqualTo(first.token());
    first.unlock();
    second.unlock();

    assertThat(first.holdCount()).isZero();
    assertThat(registry.toString()).contains("keys in use=0");
  }

  @Test
  void locksOfDifferentKeysDoNotExcludeEachOther() throws Exception {
    LeaseLock report = registry.obtain("report");
    report.lock();
    try {
      Worker billing = worker("billing");
      assertThat(
              billing.call(
                  () -> {
                    LeaseLock lock = registry.obtain("billing");
                    boolean locked = lock.tryLock();
                    lock.unlock();
                    return locked;
                  }))
          .isTrue();
    } finally {
      report.unlock();
    }
  }

  @Test
  void onlyTheHoldingThreadUnlocks() throws Exception {
    LeaseLock lock = registry.obtain("report");
    Worker stranger = worker("stranger");

    assertThatThrownBy(lock::unlock)
        .isInstanceOf(IllegalMonitorStateException.class)
        .hasMessageContaining("'report' is not held by");

    lock.lock();
    try {
      Future<?> unlocking =
          stranger.submit(
              () -> {
                registry.obtain("report").unlock();
                return null;
              });
      assertThatThrownBy(unlocking::get)
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(IllegalMonitorStateException.class);
      assertThat(lock.holdCount()).isEqualTo(1);
      assertThat(lock.lease().isHeld()).isTrue();
    } finally {
      lock.unlock();
    }
  }

  @Test
  void aSecondThreadWaitsUntilTheHolderUnlocks() throws Exception {
    LeaseLock lock = registry.obtain("report");
    Worker waiter = worker("waiter");
    lock.lock();
    long token = lock.token();
    CountDownLatch locking = new CountDownLatch(1);

    Future<Long> waiting =
        waiter.submit(
            () -> {
              LeaseLock same = registry.obtain("report");
              locking.countDown();
              same.lock();
              try {
                return same.token();
              } finally {
                same.unlock();
              }
            });
    locking.await();
    await().until(waiter::isWaiting);
    assertThat(waiting).isNotDone();
    lock.unlock();

    assertThat(waiting.get(30, TimeUnit.SECONDS)).isGreaterThan(token);
  }

  @Test
  void tryLockFailsAtOnceAndTimedTryLockAfterItsTimeWhileAnotherThreadHolds() throws Exception {
    LeaseLock lock = registry.obtain("report");
    Worker contender = worker("contender");
    lock.lock();
    try {
      assertThat(contender.call(() -> registry.obtain("report").tryLock())).isFalse();

      long start = System.nanoTime();
      assertThat(
              contender.call(() -> registry.obtain("report").tryLock(300, TimeUnit.MILLISECONDS)))
          .isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(ms(300));
      assertThat(contender.call(() -> registry.obtain("report").tryLock(-1, TimeUnit.SECONDS)))
          .isFalse();
    } finally {
      lock.unlock();
    }
    assertThat(registry.toString()).contains("keys in use=0");
  }

  @Test
  void timedTryLockSucceedsWhenTheHolderUnlocksWithinIt() throws Exception {
    LeaseLock lock = registry.obtain("report");
    Worker contender = worker("contender");
    lock.lock();
    CountDownLatch trying = new CountDownLatch(1);

    Future<Boolean> locked =
        contender.submit(
            () -> {
              LeaseLock same = registry.obtain("report");
              trying.countDown();
              boolean got = same.tryLock(30, TimeUnit.SECONDS);
              if (got) {
                same.unlock();
              }
              return got;
            });
    trying.await();
    await().until(contender::isWaiting);
    lock.unlock();

    assertThat(locked.get(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void lockInterruptiblyEndsOnAnInterruptWithoutTheLock() throws Exception {
    LeaseLock lock = registry.obtain("report");
    Worker waiter = worker("waiter");
    lock.lock();
    CountDownLatch locking = new CountDownLatch(1);

    Future<Integer> waiting =
        waiter.submit(
            () -> {
              LeaseLock same = registry.obtain("report");
              locking.countDown();
              try {
                same.lockInterruptibly();
                same.unlock();
                return -1;
              } catch (InterruptedException expected) {
                return same.holdCount();
              }
            });
    locking.await();
    await().until(waiter::isWaiting);
    waiter.thread().interrupt();

    assertThat(waiting.get(30, TimeUnit.SECONDS)).isZero();
    lock.unlock();
    assertThat(other.obtain("report").tryLock()).as("released at once").isTrue();
    other.obtain("report").unlock();
  }

  @Test
  void lockInterruptiblyWaitingForAnotherProcessEndsOnAnInterrupt() throws Exception {
    LeaseLock elsewhere = other.obtain("report");
    elsewhere.lock();
    Worker waiter = worker("waiter");
    CountDownLatch locking = new CountDownLatch(1);

    Future<Boolean> waiting =
        waiter.submit(
            () -> {
              locking.countDown();
              try {
                registry.obtain("report").lockInterruptibly();
                return false;
              } catch (InterruptedException expected) {
                return !registry.obtain("report").isHeldByCurrentThread();
              }
            });
    locking.await();
    await().until(waiter::isWaiting);
    waiter.thread().interrupt();

    assertThat(waiting.get(30, TimeUnit.SECONDS)).isTrue();
    elsewhere.unlock();
    assertThat(registry.toString()).contains("keys in use=0");
  }

  @Test
  void anInterruptedThreadDoesNotStartToWaitInLockInterruptibly() {
    LeaseLock lock = registry.obtain("report");
    Thread.currentThread().interrupt();

    assertThatThrownBy(lock::lockInterruptibly).isInstanceOf(InterruptedException.class);
    assertThat(Thread.interrupted()).as("the interrupt was consumed by the exception").isFalse();
    assertThat(lock.holdCount()).isZero();
  }

  @Test
  void lockWaitsThroughAnInterruptAndKeepsIt() throws Exception {
    LeaseLock lock = registry.obtain("report");
    Worker waiter = worker("waiter");
    lock.lock();
    CountDownLatch locking = new CountDownLatch(1);

    Future<Boolean> waiting =
        waiter.submit(
            () -> {
              LeaseLock same = registry.obtain("report");
              locking.countDown();
              same.lock();
              boolean interrupted = Thread.interrupted();
              same.unlock();
              return interrupted;
            });
    locking.await();
    await().until(waiter::isWaiting);
    waiter.thread().interrupt();
    await().during(ms(200)).atMost(ms(2000)).until(() -> !waiting.isDone());
    lock.unlock();

    assertThat(waiting.get(30, TimeUnit.SECONDS)).as("interrupt kept").isTrue();
  }

  @Test
  void lockWaitsThroughAnInterruptForAnotherProcessAndKeepsIt() throws Exception {
    LeaseLock elsewhere = other.obtain("report");
    elsewhere.lock();
    Worker waiter = worker("waiter");
    CountDownLatch locking = new CountDownLatch(1);

    Future<Boolean> waiting =
        waiter.submit(
            () -> {
              LeaseLock lock = registry.obtain("report");
              locking.countDown();
              lock.lock();
              boolean interrupted = Thread.interrupted();
              lock.unlock();
              return interrupted;
            });
    locking.await();
    await().until(waiter::isWaiting);
    waiter.thread().interrupt();
    await().during(ms(300)).atMost(ms(2000)).until(() -> !waiting.isDone());
    elsewhere.unlock();

    assertThat(waiting.get(30, TimeUnit.SECONDS)).as("interrupt kept").isTrue();
  }

  @Test
  void twoRegistriesOnTwoManagersOfOneStoreExcludeEachOther() throws Exception {
    LeaseLock here = registry.obtain("report");
    LeaseLock there = other.obtain("report");
    here.lock();
    long token = here.token();
    try {
      assertThat(there.tryLock()).isFalse();
      assertThat(there.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
      assertThat(there.holdCount()).isZero();
    } finally {
      here.unlock();
    }

    assertThat(there.tryLock()).as("the last unlock released the lease at once").isTrue();
    try {
      assertThat(there.token()).isGreaterThan(token);
    } finally {
      there.unlock();
    }
  }

  @Test
  void lockWaitsForAnotherProcessToUnlock() throws Exception {
    LeaseLock elsewhere = other.obtain("report");
    elsewhere.lock();
    long token = elsewhere.token();
    Worker waiter = worker("waiter");
    CountDownLatch locking = new CountDownLatch(1);

    Future<Long> waiting =
        waiter.submit(
            () -> {
              LeaseLock lock = registry.obtain("report");
              locking.countDown();
              lock.lock();
              try {
                return lock.token();
              } finally {
                lock.unlock();
              }
            });
    locking.await();
    await().until(waiter::isWaiting);
    assertThat(waiting).isNotDone();
    elsewhere.unlock();

    assertThat(waiting.get(30, TimeUnit.SECONDS)).isGreaterThan(token);
  }

  @Test
  void threadsOfTwoRegistriesNeverHoldOneKeyAtOnce() throws Exception {
    int threadsPerRegistry = 3;
    int rounds = 8;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger entries = new AtomicInteger();
    List<Long> tokens = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> parties = new ArrayList<>();
    for (LeaseLockRegistry each : List.of(registry, other)) {
      for (int t = 0; t < threadsPerRegistry; t++) {
        parties.add(
            worker("party-" + parties.size())
                .submit(
                    () -> {
                      start.await();
                      for (int r = 0; r < rounds; r++) {
                        LeaseLock lock = each.obtain("counter");
                        lock.lock();
                        try {
                          if (inside.incrementAndGet() > 1) {
                            overlaps.incrementAndGet();
                          }
                          tokens.add(lock.token());
                          entries.incrementAndGet();
                          inside.decrementAndGet();
                        } finally {
                          lock.unlock();
                        }
                      }
                      return null;
                    }));
      }
    }
    start.countDown();
    for (Future<?> party : parties) {
      party.get(90, TimeUnit.SECONDS);
    }

    assertThat(overlaps).hasValue(0);
    assertThat(entries).hasValue(2 * threadsPerRegistry * rounds);
    assertThat(tokens).doesNotHaveDuplicates();
  }

  @Test
  void aLostLeaseIsReportedByReentryAndByTheLastUnlock() throws Exception {
    LeaseLock lock = registry.obtain("report");
    lock.lock();
    lock.lock();
    long token = lock.token();

    forceRelease("report", token);
    Lease lease = lock.lease();
    await().atMost(Duration.ofSeconds(30)).until(() -> !lease.isHeld());
    assertThatThrownBy(lock::token).isInstanceOf(LeaseLost.class);
    try (Lease successor = secondManager.acquire("report")) {
      assertThat(successor.generation()).isGreaterThan(token);

      assertThatThrownBy(lock::lock).isInstanceOf(LeaseLost.class);
      assertThatThrownBy(lock::tryLock).isInstanceOf(LeaseLost.class);
      assertThat(lock.holdCount()).as("a refused reentry does not count").isEqualTo(2);
      lock.unlock();
      assertThatThrownBy(lock::unlock)
          .isInstanceOf(ConcurrentModificationException.class)
          .hasMessageContaining("'report' was lost while held")
          .cause()
          .isInstanceOfSatisfying(
              LeaseLost.class,
              lost -> {
                assertThat(lost.generation()).isEqualTo(token);
                assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.FORCED_RELEASE);
              });
      assertThat(lock.holdCount()).as("the lock is free all the same").isZero();
    }
    assertThat(lock.tryLock()).isTrue();
    assertThat(lock.token()).isGreaterThan(token);
    lock.unlock();
  }

  @Test
  void aLockHeldWhenItsManagerClosesIsLost() {
    LeaseLock lock = registry.obtain("report");
    lock.lock();

    firstManager.close();

    assertThat(lock.lease().isHeld()).isFalse();
    assertThatThrownBy(lock::unlock)
        .isInstanceOf(ConcurrentModificationException.class)
        .cause()
        .isInstanceOfSatisfying(
            LeaseLost.class,
            lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.RELEASED));
    assertThat(lock.holdCount()).isZero();
    assertThatThrownBy(lock::tryLock).isInstanceOf(IllegalStateException.class);
    assertThat(lock.holdCount()).isZero();
  }

  @Test
  @SuppressWarnings("unchecked") // LockRegistry is raw here on Spring Integration 7.0
  void executeLockedRunsUnderTheLockAndUnlocks() throws Throwable {
    AtomicInteger heldInside = new AtomicInteger();

    registry.executeLocked("report", () -> heldInside.set(registry.obtain("report").holdCount()));

    assertThat(heldInside).hasValue(1);
    assertThat(registry.obtain("report").holdCount()).isZero();
    assertThat(other.obtain("report").tryLock()).isTrue();
    other.obtain("report").unlock();
  }

  @Test
  void conditionsAreNotSupported() {
    assertThatThrownBy(() -> registry.obtain("report").newCondition())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /** An operator's release of the record at {@code generation}, as {@code lease release} does. */
  private void forceRelease(String key, long generation) {
    LeaseSnapshot current = repository.load(key).orElseThrow();
    assertThat(current.generation()).isEqualTo(generation);
    repository.save(current.release(Instant.now()));
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
