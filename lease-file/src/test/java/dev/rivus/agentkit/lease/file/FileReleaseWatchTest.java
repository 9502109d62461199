/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A waiter on one directory of record files is woken through the file's change notices by a release
 * made through another repository instance, long before its slow re-check (the heartbeat) or the
 * holder's TTL.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileReleaseWatchTest {

  private static final Duration HEARTBEAT = Duration.ofSeconds(10);
  private static final Duration TTL = Duration.ofSeconds(30);

  /** Well short of the re-check: only a wake-up can hand over this soon. */
  private static final Duration SOON = Duration.ofSeconds(5);

  @TempDir Path dir;

  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void aReleaseThroughAnotherInstanceWakesTheWaiter() throws Exception {
    Path db = dir.resolve("leases");
    try (FileLeaseRepository holding = FileLeaseRepository.open(db);
        FileLeaseRepository waiting = FileLeaseRepository.open(db);
        LeaseManager holder = LeaseManager.builder(holding).ttl(TTL).heartbeat(HEARTBEAT).build()) {
      Lease held = holder.acquire("k");
      Waiter waiter = new Waiter(waiting, "k");
      long released = System.nanoTime();
      held.close();
      Lease next = waiter.next.get(20, TimeUnit.SECONDS);
      assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(SOON);
      assertThat(next.generation()).isGreaterThan(held.generation());
      waiter.close();
    }
  }

  /** A manager waiting for the key, whose first attempt already failed. */
  private final class Waiter implements AutoCloseable {
    final LeaseManager manager;
    final CompletableFuture<Lease> next;

    Waiter(FileLeaseRepository repository, String key) throws InterruptedException {
      // Without a watch the manager would poll, and hand over this soon too.
      repository.watchKey(key).orElseThrow().close();
      CountDownLatch attemptFailed = new CountDownLatch(1);
      manager =
          LeaseManager.builder(repository)
              .ttl(TTL)
              .heartbeat(HEARTBEAT)
              .listener(
                  new LeaseListener() {
                    @Override
                    public void heldByAnother(LeaseEvent.HeldByAnother event) {
                      attemptFailed.countDown();
                    }
                  })
              .build();
      next =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return manager.acquire(key, Duration.ofSeconds(40));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              threads);
      assertThat(attemptFailed.await(20, TimeUnit.SECONDS)).as("the waiter's first try").isTrue();
    }

    @Override
    public void close() {
      manager.close();
    }
  }
}
