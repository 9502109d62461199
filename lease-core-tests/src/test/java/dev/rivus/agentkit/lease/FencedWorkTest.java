/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fenced work with real threads: the key lock, the re-read, interruption on loss and its clean-up.
 * Lease time is fake; the holder loses its lease when the test moves its clock past the TTL while
 * its repository fails, or when a renewal finds the record taken over.
 */
class FencedWorkTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);
  private static final long WAIT_SECONDS = 10;

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FlakyRepository holderRepository = new FlakyRepository(store);
  private final FakePlatform holderPlatform = Samples.platformOf(100);
  private final FakePlatform successorPlatform = Samples.platformOf(200);
  private final LeaseManager holder = holderPlatform.newManager(holderRepository, TTL, HEARTBEAT);
  private final LeaseManager successor = successorPlatform.newManager(store, TTL, HEARTBEAT);
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void tearDown() throws InterruptedException {
    holderRepository.recover();
    threads.shutdownNow();
    assertThat(threads.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    holder.close();
    successor.close();
  }

  /**
   * The holder's repository becomes unreachable and its clock passes the TTL: the lease expires.
   */
  private void loseByExpiry(Lease lease) {
    holderRepository.startFailing();
    holderPlatform.advance(TTL);
    assertThat(lease.isHeld()).isFalse();
  }

  @Test
  void fencedWorkReceivesTheHandlesToken() throws Exception {
    try (Lease lease = holder.acquire("task")) {
      long seen = lease.runFenced(token -> token.generation());
      String key = lease.runFenced(FencingToken::key);

      assertThat(seen).isEqualTo(lease.generation());
      assertThat(key).isEqualTo("task");
    }
  }

  @Test
  void anOldHandlesTokenIsRefusedOnceASuccessorAcquired() {
    Lease old =
        holder.acquire("task"); // pid 100 is not running for the successor: taken over at once
    Lease next = successor.acquire("task");
    AtomicBoolean ran = new AtomicBoolean();

    assertThatThrownBy(() -> old.runFenced(token -> ran.getAndSet(true)))
        .isInstanceOfSatisfying(
            LeaseLost.class,
            lost -> {
              assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.TAKEN_OVER);
              assertThat(lost.generation()).isEqualTo(old.generation());
              assertThat(lost.current()).map(LeaseSnapshot::generation).contains(next.generation());
            });
    assertThat(ran).isFalse();
    assertThat(old.isHeld()).isFalse();
    assertThatThrownBy(() -> old.runUntilLost(() -> ran.getAndSet(true)))
        .isInstanceOf(LeaseLost.class);
    assertThat(ran).isFalse();
  }

  @Test
  void aSuccessorsFencedWorkWaitsForItsPredecessorsWorkToEnd() throws Exception {
    Lease old = holder.acquire("task");
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    List<Long> order = new ArrayList<>();
    CountDownLatch oldWorking = new CountDownLatch(1);
    CountDownLatch finishOld = new CountDownLatch(1);
    Future<?> oldWork =
        threads.submit(
            () ->
                old.runFenced(
                    token -> {
                      mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      oldWorking.countDown();
                      finishOld.await();
                      synchronized (order) {
                        order.add(token.generation());
                      }
                      inside.decrementAndGet();
                      return null;
                    }));
    assertThat(oldWorking.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    Lease next = successor.acquire("task");
    AtomicBoolean nextStarted = new AtomicBoolean();
    Future<?> nextWork =
        threads.submit(
            () ->
                next.runFenced(
                    token -> {
                      nextStarted.set(true);
                      mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      synchronized (order) {
                        order.add(token.generation());
                      }
                      inside.decrementAndGet();
                      return null;
                    }));

    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilFalse(nextStarted);
    finishOld.countDown();
    oldWork.get(WAIT_SECONDS, TimeUnit.SECONDS);
    nextWork.get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(mostInside).hasValue(1);
    assertThat(order).containsExactly(old.generation(), next.generation());
  }

  @Test
  void losingTheLeaseInterruptsTheWorkAndLeavesNoInterruptBehind() throws Exception {
    Lease lease = holder.acquire("task");
    CountDownLatch working = new CountDownLatch(1);
    Future<Boolean> interruptedAfterwards =
        threads.submit(
            () -> {
              try {
                lease.runFenced(
                    token -> {
                      working.countDown();
                      new CountDownLatch(1).await(); // blocks until interrupted
                      return null;
                    });
                throw new AssertionError("fenced work returned although the lease was lost");
              } catch (LeaseLost expected) {
                assertThat(expected.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
                assertThat(expected.getSuppressed())
                    .hasAtLeastOneElementOfType(InterruptedException.class);
              }
              return Thread.currentThread().isInterrupted();
            });
    assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    loseByExpiry(lease);

    assertThat(interruptedAfterwards.get(WAIT_SECONDS, TimeUnit.SECONDS)).isFalse();
  }

  @Test
  void workThatIgnoresTheInterruptIsReportedAsLostAndLeavesNoInterruptBehind() throws Exception {
    Lease lease = holder.acquire("task");
    CountDownLatch working = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    Future<Boolean> interruptedAfterwards =
        threads.submit(
            () -> {
              assertThatThrownBy(
                      () ->
                          lease.runFenced(
                              token -> {
                                working.countDown();
                                awaitIgnoringInterrupts(finish);
                                return "done";
                              }))
                  .isInstanceOf(LeaseLost.class);
              return Thread.currentThread().isInterrupted();
            });
    assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    loseByExpiry(lease);
    finish.countDown();

    assertThat(interruptedAfterwards.get(WAIT_SECONDS, TimeUnit.SECONDS)).isFalse();
  }

  @Test
  void anInterruptFromElsewhereIsNotSwallowed() throws Exception {
    try (Lease lease = holder.acquire("task")) {
      // Work that ignores an outside interrupt: the flag is still set afterwards.
      Future<Boolean> flagKept =
          threads.submit(
              () -> {
                lease.runFenced(
                    token -> {
                      Thread.currentThread().interrupt();
                      return null;
                    });
                return Thread.interrupted();
              });
      assertThat(flagKept.get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

      // Work interrupted from outside while it waits: InterruptedException, not LeaseLost.
      CountDownLatch working = new CountDownLatch(1);
      Future<?> interruptedWork =
          threads.submit(
              () ->
                  lease.runFenced(
                      token -> {
                        working.countDown();
                        new CountDownLatch(1).await();
                        return null;
                      }));
      assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
      interruptedWork.cancel(true);
      await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(interruptedWork::isDone);
      assertThat(lease.isHeld()).isTrue();
      String afterwards = lease.runFenced(token -> "still usable");
      assertThat(afterwards).isEqualTo("still usable");
    }
  }

  @Test
  void anOutsideInterruptEndsTheWorkWithInterruptedException() throws Exception {
    try (Lease lease = holder.acquire("task")) {
      CountDownLatch working = new CountDownLatch(1);
      AtomicReference<Thread> worker = new AtomicReference<>();
      Future<Throwable> outcome =
          failureOf(
              () -> {
                worker.set(Thread.currentThread());
                lease.runFenced(
                    token -> {
                      working.countDown();
                      new CountDownLatch(1).await();
                      return null;
                    });
              });
      assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
      worker.get().interrupt();

      assertThat(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS))
          .isInstanceOf(InterruptedException.class);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void uninterruptibleWorkSettlesBeforeTheLossIsReported() throws Exception {
    Lease lease = holder.acquire("task");
    CountDownLatch working = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    AtomicBoolean interruptedDuringWork = new AtomicBoolean();
    AtomicBoolean completed = new AtomicBoolean();
    Future<Throwable> outcome =
        failureOf(
            () -> {
              lease.runFencedUninterruptibly(
                  token -> {
                    working.countDown();
                    finish.await(); // would throw if the library interrupted it
                    interruptedDuringWork.set(Thread.currentThread().isInterrupted());
                    completed.set(true);
                    return null;
                  });
            });
    assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    loseByExpiry(lease);
    lease.lost().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(outcome).isNotDone();
    finish.countDown();

    assertThat(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(LeaseLost.class);
    assertThat(completed).isTrue();
    assertThat(interruptedDuringWork).isFalse();
  }

  /**
   * Work that ends while its lease is held releases its key lock and waits for that; work ended by
   * the loss abandons it, so that the loss is reported without waiting for a storage that may not
   * answer (a database behind a cut network).
   */
  @Test
  void workEndedByTheLossAbandonsItsKeyLockAndWorkThatEndsHeldClosesIt() throws Exception {
    List<String> keyLockEnds = Collections.synchronizedList(new ArrayList<>());
    FlakyRepository repository =
        new FlakyRepository(
            new ForwardingLeaseRepository(store) {
              @Override
              public KeyLock lockKey(String key, Duration silenceLimit)
                  throws InterruptedException {
                KeyLock lock = super.lockKey(key, silenceLimit);
                return new KeyLock() {
                  @Override
                  public boolean isHeld() {
                    return lock.isHeld();
                  }

                  @Override
                  public void close() {
                    keyLockEnds.add("close");
                    lock.close();
                  }

                  @Override
                  public void abandon() {
                    keyLockEnds.add("abandon");
                    lock.close();
                  }
                };
              }
            });
    FakePlatform platform = Samples.platformOf(300);
    try (LeaseManager manager = platform.newManager(repository, TTL, HEARTBEAT);
        Lease lease = manager.acquire("task")) {
      String done = lease.runFenced(token -> "done");
      assertThat(done).isEqualTo("done");
      assertThatThrownBy(
              () ->
                  lease.runFenced(
                      token -> {
                        repository.startFailing();
                        platform.advance(TTL); // the lease expires while the work runs
                        return "ended after the loss";
                      }))
          .isInstanceOf(LeaseLost.class);

      assertThat(keyLockEnds).containsExactly("close", "abandon");
    } finally {
      repository.recover();
    }
  }

  @Test
  void theCancelActionRunsOnLossToStopACallThatIgnoresInterrupts() throws Exception {
    Lease lease = holder.acquire("task");
    CountDownLatch working = new CountDownLatch(1);
    CountDownLatch blockingCall = new CountDownLatch(1); // stands for a JDBC call; cancel() ends it
    Future<Throwable> outcome =
        failureOf(
            () -> {
              lease.runFenced(
                  token -> {
                    try (FencingToken.Registration cancel = token.onLoss(blockingCall::countDown)) {
                      working.countDown();
                      awaitIgnoringInterrupts(blockingCall);
                    }
                    return null;
                  });
            });
    assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    loseByExpiry(lease);

    assertThat(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(LeaseLost.class);
    assertThat(blockingCall.getCount()).isZero();
  }

  @Test
  void waitingForTheKeyLockEndsWithLeaseLostWhenTheLeaseIsLost() throws Exception {
    // The successor holds the key lock with long work; the old holder, not yet aware it was taken
    // over,
    // waits for the key lock; its lease then expires.
    Lease old = holder.acquire("task");
    Lease next = successor.acquire("task");
    CountDownLatch nextWorking = new CountDownLatch(1);
    CountDownLatch finishNext = new CountDownLatch(1);
    Future<?> nextWork =
        threads.submit(
            () ->
                next.runFenced(
                    token -> {
                      nextWorking.countDown();
                      finishNext.await();
                      return null;
                    }));
    assertThat(nextWorking.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    AtomicBoolean oldRan = new AtomicBoolean();
    Future<Throwable> oldWait =
        failureOf(
            () -> {
              old.runFenced(token -> oldRan.getAndSet(true));
            });
    await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> isWaitingForKeyLock(oldWait));

    loseByExpiry(old);

    assertThat(oldWait.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(LeaseLost.class);
    assertThat(oldRan).isFalse();
    assertThat(nextWork).isNotDone();
    finishNext.countDown();
    nextWork.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private static boolean isWaitingForKeyLock(Future<?> task) {
    return !task.isDone()
        && Thread.getAllStackTraces().values().stream()
            .anyMatch(
                frames -> {
                  for (StackTraceElement frame : frames) {
                    if (frame.getMethodName().equals("lockKey")) {
                      return true;
                    }
                  }
                  return false;
                });
  }

  /**
   * Issue 24: fenced work takes its key lock with the lease's TTL plus the manager's grace as the
   * silence limit, the manager asks about the key lock every heartbeat round while the lease is
   * held (which keeps a database's session alive), and stops asking once the lease is lost (so the
   * store may end it once that limit has passed).
   */
  @Test
  void fencedWorksKeyLockHasTheTtlAndGraceAsSilenceLimitAndIsAskedAboutUntilTheLoss()
      throws Exception {
    Duration grace = Duration.ofSeconds(3);
    List<Duration> limits = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger asked = new AtomicInteger();
    FlakyRepository repository =
        new FlakyRepository(
            new ForwardingLeaseRepository(store) {
              @Override
              public KeyLock lockKey(String key, Duration silenceLimit)
                  throws InterruptedException {
                limits.add(silenceLimit);
                KeyLock lock = super.lockKey(key, silenceLimit);
                return new KeyLock() {
                  @Override
                  public boolean isHeld() {
                    asked.incrementAndGet();
                    return lock.isHeld();
                  }

                  @Override
                  public void close() {
                    lock.close();
                  }
                };
              }
            });
    FakePlatform platform = Samples.platformOf(300);
    try (LeaseManager manager =
            platform.managerBuilder(repository).ttl(TTL).heartbeat(HEARTBEAT).grace(grace).build();
        Lease lease = manager.acquire("task")) {
      CountDownLatch working = new CountDownLatch(1);
      Future<String> work =
          threads.submit(
              () ->
                  lease.runFenced(
                      token -> {
                        working.countDown();
                        new CountDownLatch(1).await(); // until the loss interrupts it
                        return "never";
                      }));
      assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(limits).containsExactly(TTL.plus(grace));

      for (int beat = 1; beat <= 3; beat++) {
        platform.advance(HEARTBEAT);
        assertThat(asked).as("key lock asked about after %s rounds", beat).hasValue(beat);
      }
      repository.startFailing();
      platform.advance(TTL);
      assertThat(lease.isHeld()).isFalse();
      int askedBeforeTheLoss = asked.get();
      platform.advance(HEARTBEAT.multipliedBy(3));

      assertThat(asked).as("asked about after the loss").hasValue(askedBeforeTheLoss);
      assertThatThrownBy(() -> work.get(WAIT_SECONDS, TimeUnit.SECONDS))
          .hasCauseInstanceOf(LeaseLost.class);
    } finally {
      repository.recover();
    }
  }

  @Test
  void theHeartbeatGoesOnRenewingWhileFencedWorkRunsLongerThanTheTtl() throws Exception {
    observeHolderAsRunning();
    try (Lease lease = holder.acquire("task")) {
      CountDownLatch working = new CountDownLatch(1);
      CountDownLatch finish = new CountDownLatch(1);
      Future<String> work =
          threads.submit(
              () ->
                  lease.runFenced(
                      token -> {
                        working.countDown();
                        finish.await();
                        return "finished";
                      }));
      assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
      long revision = store.load("task").orElseThrow().revision();

      for (int beat = 0; beat < 3 * TTL.dividedBy(HEARTBEAT); beat++) {
        holderPlatform.advance(HEARTBEAT);
        successorPlatform.advance(HEARTBEAT);
        assertThatThrownBy(() -> successor.acquire("task")).isInstanceOf(LeaseHeld.class);
      }

      assertThat(lease.isHeld()).isTrue();
      assertThat(store.load("task").orElseThrow().revision()).isEqualTo(revision + 15);
      finish.countDown();
      assertThat(work.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("finished");
    }
  }

  @Test
  void runUntilLostInterruptsOtherWorkOnLossAndCompletesTheLostSignal() throws Exception {
    Lease lease = holder.acquire("task");
    CountDownLatch working = new CountDownLatch(1);
    Future<Throwable> outcome =
        failureOf(
            () -> {
              lease.runUntilLost(
                  () -> {
                    working.countDown();
                    new CountDownLatch(1).await();
                    return null;
                  });
            });
    assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    loseByExpiry(lease);

    assertThat(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(LeaseLost.class);
    assertThat(lease.lost().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS).reason())
        .isEqualTo(LeaseLost.Reason.EXPIRED);
  }

  @Test
  void closingTheLeaseInterruptsFencedWorkOnAnotherThread() throws Exception {
    Lease lease = holder.acquire("task");
    CountDownLatch working = new CountDownLatch(1);
    Future<Throwable> outcome =
        failureOf(
            () -> {
              lease.runFenced(
                  token -> {
                    working.countDown();
                    new CountDownLatch(1).await();
                    return null;
                  });
            });
    assertThat(working.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    lease.close();

    assertThat(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOfSatisfying(
            LeaseLost.class,
            lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.RELEASED));
  }

  /** Runs {@code work} on a test thread; the future holds what it threw, or null if nothing. */
  private Future<Throwable> failureOf(Work work) {
    return threads.submit(
        () -> {
          try {
            work.run();
            return null;
          } catch (Throwable e) {
            return e;
          }
        });
  }

  @FunctionalInterface
  private interface Work {
    void run() throws Exception;
  }

  private void observeHolderAsRunning() {
    successorPlatform.markRunning(holderPlatform.currentProcess());
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    while (latch.getCount() > 0) {
      try {
        latch.await();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
