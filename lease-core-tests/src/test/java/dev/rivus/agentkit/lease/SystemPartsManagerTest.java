/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A manager on the system platform: real threads, real time. */
class SystemPartsManagerTest {

  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration HEARTBEAT = Duration.ofMillis(50);

  @Test
  void aBlockingAcquireEndsWithInterruptedExceptionWhenItsThreadIsInterrupted() throws Exception {
    MemoryLeaseRepository repository = new MemoryLeaseRepository();
    try (LeaseManager holder =
            LeaseManager.builder(repository).ttl(TTL).heartbeat(HEARTBEAT).build();
        LeaseManager waiter =
            LeaseManager.builder(repository).ttl(TTL).heartbeat(HEARTBEAT).build();
        Lease held = holder.acquire("task")) {
      AtomicReference<Thread> thread = new AtomicReference<>();
      CountDownLatch started = new CountDownLatch(1);
      CompletableFuture<Throwable> outcome =
          CompletableFuture.supplyAsync(
              () -> {
                thread.set(Thread.currentThread());
                started.countDown();
                try {
                  waiter.acquire("task", Duration.ofMinutes(5)).close();
                  return null;
                } catch (Throwable e) {
                  return e;
                }
              });
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

      thread.get().interrupt();

      assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void closingTheManagerStopsItsThreads() throws InterruptedException, ExecutionException {
    LeaseManager manager =
        LeaseManager.builder(new MemoryLeaseRepository()).ttl(TTL).heartbeat(HEARTBEAT).build();
    String name = managerThreadPrefix(manager);
    Lease lease = manager.acquire("task");
    await().atMost(Duration.ofSeconds(10)).until(() -> liveThreadsNamed(name) > 0);

    manager.close();

    await().atMost(Duration.ofSeconds(10)).until(() -> liveThreadsNamed(name) == 0);
    assertThat(lease.lost().toCompletableFuture().get().reason())
        .isEqualTo(LeaseLost.Reason.RELEASED);
  }

  /**
   * Threads per manager are bounded: one timer and a few per lane, however many leases it holds and
   * however many repository calls hang, and whatever the leases' work does.
   */
  @Test
  void threadsDoNotGrowWithLeasesOrWithHungRepositoryCalls() throws Exception {
    FlakyRepository repository = new FlakyRepository(new MemoryLeaseRepository());
    ExecutorService closers = Executors.newFixedThreadPool(20);
    try (LeaseManager manager =
        LeaseManager.builder(repository)
            .ttl(Duration.ofSeconds(1))
            .heartbeat(Duration.ofMillis(100))
            .build()) {
      String name = managerThreadPrefix(manager);
      List<Lease> leases = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        leases.add(manager.acquire("task-" + i));
      }
      List<CompletableFuture<Object>> running = new ArrayList<>();
      for (Lease lease : leases.subList(0, 20)) {
        running.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return lease.runUntilLost(
                        () -> new CountDownLatch(1).await(10, TimeUnit.MINUTES));
                  } catch (Exception e) {
                    return e;
                  }
                }));
      }

      repository.hang();
      for (Lease lease : leases.subList(100, 200)) {
        closers.execute(lease::close); // releases that hang too
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> leases.stream().noneMatch(Lease::isHeld));
      for (CompletableFuture<Object> work : running) {
        assertThat(work.get(10, TimeUnit.SECONDS)).isInstanceOf(LeaseLost.class);
      }

      assertThat(liveThreadsNamed(name))
          .as("threads of a manager with 200 leases and hung calls")
          .isLessThanOrEqualTo(6);
      repository.unhang();
    } finally {
      closers.shutdownNow();
    }
  }

  private static String managerThreadPrefix(LeaseManager manager) {
    // toString() is "LeaseManager[<id>, ...]"; the manager's threads are named "lease-<id>-...".
    String text = manager.toString();
    return "lease-" + text.substring(text.indexOf('[') + 1, text.indexOf(','));
  }

  private static long liveThreadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
        .count();
  }
}
