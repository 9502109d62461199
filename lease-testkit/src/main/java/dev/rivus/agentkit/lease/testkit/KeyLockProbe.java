/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Scenarios on a repository's key lock, with threads coordinated by latches. Where a scenario must
 * show that a thread is still blocked, it waits a short {@link #STILL_BLOCKED} window for a latch
 * that must not open: a bounded check of absence, never a pause to let something happen.
 */
@SuppressWarnings(
    "try") // a key lock is held for the extent of its try block, never referenced in it
final class KeyLockProbe {

  private static final Duration STILL_BLOCKED = Duration.ofMillis(300);

  /** How long a thread stays inside the key lock in the exclusion stress test. */
  private static final Duration INSIDE = Duration.ofNanos(200_000);

  private final LeaseRepository repository;
  private final LeaseRepository other;
  private final Workers workers;
  private final Duration patience;

  /**
   * A probe whose first party takes key locks through {@code repository} and whose second party
   * (the waiter, every other hammering thread) through {@code other}, which may be the same
   * instance.
   */
  KeyLockProbe(
      LeaseRepository repository, LeaseRepository other, Workers workers, Duration patience) {
    this.repository = repository;
    this.other = other;
    this.workers = workers;
    this.patience = patience;
  }

  /**
   * Runs {@code check} on a worker, within a time limit, while another worker holds the key lock.
   */
  void whileHeldElsewhere(String key, ThrowingRunnable check) throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<Void> holder =
        workers.submit(
            () -> {
              try (LeaseRepository.KeyLock keyLock = repository.lockKey(key)) {
                held.countDown();
                release.await();
              }
              return null;
            });
    try {
      assertThat(held.await(patience.toNanos(), TimeUnit.NANOSECONDS))
          .as("a worker took the key lock of '%s'", key)
          .isTrue();
      Future<Void> checking =
          workers.submit(
              () -> {
                check.run();
                return null;
              });
      Workers.await(checking, patience, "the check while another thread holds the key lock");
    } finally {
      release.countDown();
    }
    Workers.await(holder, patience, "the key lock holder");
  }

  void waiterProceedsOnlyAfterRelease(String key) throws Exception {
    waiterProceedsOnlyAfterRelease(key, LeaseRepository.KeyLock::close);
  }

  /** As above, the first key lock given up by {@code release} (closed, or abandoned). */
  void waiterProceedsOnlyAfterRelease(String key, Consumer<LeaseRepository.KeyLock> release)
      throws Exception {
    LeaseRepository.KeyLock first = repository.lockKey(key);
    CountDownLatch waiting = new CountDownLatch(1);
    CountDownLatch got = new CountDownLatch(1);
    Future<Void> second;
    try {
      second =
          workers.submit(
              () -> {
                waiting.countDown();
                try (LeaseRepository.KeyLock keyLock = other.lockKey(key)) {
                  got.countDown();
                }
                return null;
              });
      assertThat(waiting.await(patience.toNanos(), TimeUnit.NANOSECONDS)).isTrue();
      assertThat(got.await(STILL_BLOCKED.toNanos(), TimeUnit.NANOSECONDS))
          .as("a second thread got the key lock of '%s' while the first held it", key)
          .isFalse();
    } finally {
      release.accept(first);
    }
    assertThat(got.await(patience.toNanos(), TimeUnit.NANOSECONDS))
        .as("the second thread got the key lock once the first released it")
        .isTrue();
    Workers.await(second, patience, "the second key lock holder");
  }

  /** Returns the most threads ever seen inside the key lock at once. */
  int maxConcurrentHolders(String key, int threads, int rounds) throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger entries = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Void>> hammers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      LeaseRepository instance = t % 2 == 0 ? repository : other;
      hammers.add(
          workers.submit(
              () -> {
                start.await();
                for (int round = 0; round < rounds; round++) {
                  try (LeaseRepository.KeyLock keyLock = instance.lockKey(key)) {
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    entries.incrementAndGet();
                    stayInside(inside);
                    inside.decrementAndGet();
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<Void> hammer : hammers) {
      Workers.await(hammer, patience.multipliedBy(3), "a thread taking the key lock repeatedly");
    }
    assertThat(entries.get()).as("fenced sections entered").isEqualTo(threads * rounds);
    return most.get();
  }

  /**
   * Stays in the fenced section for a moment (at most {@link #INSIDE} of spinning), so that a
   * thread breaking in would be seen; ends early once one is.
   */
  private static void stayInside(AtomicInteger inside) {
    long end = System.nanoTime() + INSIDE.toNanos();
    while (inside.get() == 1 && System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  void othersAreFree(String key, List<String> others) throws Exception {
    try (LeaseRepository.KeyLock held = repository.lockKey(key)) {
      for (String other : others) {
        Future<Void> taking =
            workers.submit(
                () -> {
                  repository.lockKey(other).close();
                  return null;
                });
        Workers.await(
            taking, patience, "taking the key lock of '" + other + "' while '" + key + "' is held");
      }
    }
  }

  void interruptedWaiterGivesUp(String key) throws Exception {
    AtomicReference<Thread> waiterThread = new AtomicReference<>();
    CompletableFuture<String> outcome = new CompletableFuture<>();
    try (LeaseRepository.KeyLock held = repository.lockKey(key)) {
      Future<@Nullable Void> waiting =
          workers.submit(
              () -> {
                waiterThread.set(Thread.currentThread());
                try (LeaseRepository.KeyLock keyLock = repository.lockKey(key)) {
                  outcome.complete("got the key lock although it was held");
                } catch (InterruptedException expected) {
                  outcome.complete("interrupted");
                } catch (Exception | Error other) {
                  outcome.complete("failed with " + other);
                }
                return null;
              });
      Thread waiter =
          await("the waiter to start").atMost(patience).until(waiterThread::get, Objects::nonNull);
      awaitParked(waiter);
      waiter.interrupt();

      assertThat(Workers.await(outcome, patience, "the interrupted key lock wait"))
          .as("outcome of a key lock wait interrupted while the key lock is held")
          .isEqualTo("interrupted");
      Workers.await(waiting, patience, "the interrupted waiter");
    }
    // The interrupted wait must leave nothing behind: the released key lock can be taken again.
    Future<Void> again =
        workers.submit(
            () -> {
              repository.lockKey(key).close();
              return null;
            });
    Workers.await(again, patience, "taking the key lock after an interrupted wait");
  }

  void releaseFromAnotherThreadTwice(String key) throws Exception {
    LeaseRepository.KeyLock taken = repository.lockKey(key);
    Workers.await(
        workers.submit(
            () -> {
              taken.close();
              taken.close();
              return null;
            }),
        patience,
        "releasing the key lock from another thread");
    // Released once: one thread may take it again, and a second must still wait for that one.
    waiterProceedsOnlyAfterRelease(key);
  }

  /**
   * Waits until {@code thread} blocks. A wait inside native code (a file lock) shows as RUNNABLE;
   * if the thread never parks, the scenario goes on and interrupts it wherever it is, which must
   * end the wait just as well.
   */
  private static void awaitParked(Thread thread) {
    try {
      await("the waiter to block on the key lock")
          .atMost(Duration.ofSeconds(2))
          .until(
              () ->
                  thread.getState() == Thread.State.WAITING
                      || thread.getState() == Thread.State.TIMED_WAITING
                      || thread.getState() == Thread.State.BLOCKED);
    } catch (ConditionTimeoutException waitsInNativeCode) {
      // interrupt anyway
    }
  }

  /** A check that may throw. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }
}
