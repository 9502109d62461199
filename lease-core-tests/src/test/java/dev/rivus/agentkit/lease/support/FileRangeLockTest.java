/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRangeLockTest {

  @TempDir Path directory;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() throws InterruptedException {
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aLockWhoseFileWasDeletedOrReplacedSaysItIsNoLongerHeldAndTheNextLockUsesTheNewFile()
      throws Exception {
    Path file = directory.resolve("fence.lock");
    try (FileRangeLock.Held first = FileRangeLock.of(file, 0, 1).lock()) {
      assertThat(first.isHeld()).isTrue();

      java.nio.file.Files.delete(file); // as `rm *.lock` would, while the lock is held

      assertThat(first.isHeld()).as("a lock on a deleted file").isFalse();
      // Another range while the first is still open: it must lock the file now at the path.
      try (FileRangeLock.Held second = FileRangeLock.of(file, 7, 1).lock(Duration.ofSeconds(10))) {
        assertThat(second.isHeld()).as("a lock on the file now at the path").isTrue();
        assertThat(file).exists();
      }
    }
    try (FileRangeLock.Held third = FileRangeLock.of(file, 0, 1).lock(Duration.ofSeconds(10))) {
      java.nio.file.Path replacement = directory.resolve("replacement.lock");
      java.nio.file.Files.createFile(replacement);
      java.nio.file.Files.move(
          replacement, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

      assertThat(third.isHeld()).as("a lock on a replaced file").isFalse();
    }
  }

  @Test
  void admitsOneThreadAtATimeAcrossLockInstancesWithoutOverlappingFileLockException()
      throws Exception {
    Path file = directory.resolve("one.lock");
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    AtomicInteger entries = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      workers.add(
          threads.submit(
              () -> {
                start.await();
                for (int i = 0; i < 50; i++) {
                  // A new instance each time: exclusion must not depend on sharing one object.
                  try (FileRangeLock.Held held = FileRangeLock.of(file, 0, 1).lock()) {
                    mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    assertThat(held.isHeld()).isTrue();
                    Thread.yield();
                    inside.decrementAndGet();
                    entries.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> worker : workers) {
      worker.get(60, TimeUnit.SECONDS);
    }

    assertThat(entries).hasValue(200);
    assertThat(mostInside).hasValue(1);
    assertThat(LockFileRegistry.isRegistered(realPath(file))).isFalse();
  }

  @Test
  void differentRangesOfOneFileAreHeldIndependently() throws Exception {
    Path file = directory.resolve("shared.lock");
    FileRangeLock.Held first = FileRangeLock.of(file, 0, 1).lock();

    FileRangeLock.Held second = FileRangeLock.of(file, 1, 1).lock(Duration.ofMillis(200));
    second.close();

    // Releasing one range must not close the channel that still carries the other.
    assertThat(first.isHeld()).isTrue();
    assertThat(LockFileRegistry.isRegistered(realPath(file))).isTrue();
    first.close();
    assertThat(LockFileRegistry.isRegistered(realPath(file))).isFalse();
  }

  @Test
  void boundedWaitEndsWithLeaseRepositoryFailureNamingTheFileAndTheWait() throws Exception {
    Path file = directory.resolve("busy.lock");
    try (FileRangeLock.Held held = FileRangeLock.of(file, 5, 3).lock()) {
      assertThat(held.isHeld()).isTrue();

      Future<?> waiter =
          threads.submit(() -> FileRangeLock.of(file, 5, 3).lock(Duration.ofMillis(150)));

      assertThat(awaitFailure(waiter))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageFindingMatch("timed out after \\d+\\.\\d{3} s")
          .hasMessageContaining("bytes [5, 8)")
          .hasMessageContaining(file.toAbsolutePath().toString());
    }
  }

  @Test
  void unboundedWaitEndsWithInterruptedExceptionWhenTheThreadIsInterrupted() throws Exception {
    Path file = directory.resolve("fence.lock");
    try (FileRangeLock.Held held = FileRangeLock.of(file, 0, 1).lock()) {
      assertThat(held.isHeld()).isTrue();
      Thread[] waiting = new Thread[1];
      CountDownLatch started = new CountDownLatch(1);
      Future<?> waiter =
          threads.submit(
              () -> {
                waiting[0] = Thread.currentThread();
                started.countDown();
                return FileRangeLock.of(file, 0, 1).lock();
              });
      started.await();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> waiting[0].getState() == Thread.State.WAITING);

      waiting[0].interrupt();

      assertThat(awaitFailure(waiter)).isInstanceOf(InterruptedException.class);
    }
    assertThat(LockFileRegistry.isRegistered(realPath(file))).isFalse();
  }

  @Test
  void anInterruptedThreadDoesNotTakeTheLock() {
    Path file = directory.resolve("free.lock");
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> FileRangeLock.of(file, 0, 1).lock())
        .isInstanceOf(InterruptedException.class);
    assertThat(Thread.interrupted()).isFalse();
    assertThat(LockFileRegistry.isRegistered(realPath(file))).isFalse();
  }

  @Test
  void releaseIsIdempotentAndAllowedFromAnotherThread() throws Exception {
    Path file = directory.resolve("handover.lock");
    FileRangeLock.Held held = FileRangeLock.of(file, 0, 1).lock();

    threads.submit(held::close).get(10, TimeUnit.SECONDS);
    held.close();

    assertThat(held.isHeld()).isFalse();
    try (FileRangeLock.Held again = FileRangeLock.of(file, 0, 1).lock(Duration.ofMillis(200))) {
      assertThat(again.isHeld()).isTrue();
    }
  }

  @Test
  void waitersQueueInTheOrderTheyArrived() throws Exception {
    Path file = directory.resolve("fair.lock");
    List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
    FileRangeLock.Held first = FileRangeLock.of(file, 0, 1).lock();
    List<Future<?>> waiters = new ArrayList<>();
    List<Thread> waitingThreads = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 3; i++) {
      int number = i;
      waiters.add(
          threads.submit(
              () -> {
                waitingThreads.add(Thread.currentThread());
                FileRangeLock.Held held = FileRangeLock.of(file, 0, 1).lock();
                order.add(number);
                held.close();
                return null;
              }));
      // Each waiter must be parked on the fair gate before the next one arrives.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  waitingThreads.size() == number + 1
                      && waitingThreads.get(number).getState() == Thread.State.WAITING);
    }

    first.close();
    for (Future<?> waiter : waiters) {
      waiter.get(10, TimeUnit.SECONDS);
    }

    assertThat(order).containsExactly(0, 1, 2);
  }

  @Test
  void rejectsRangesThatCannotBeLocked() {
    Path file = directory.resolve("x.lock");
    assertThatThrownBy(() -> FileRangeLock.of(file, -1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FileRangeLock.of(file, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FileRangeLock.of(file, Long.MAX_VALUE, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position " + Long.MAX_VALUE);
    assertThatThrownBy(() -> FileRangeLock.of(file, 0, 1).lock(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FileRangeLock.of(null, 0, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("file");
    assertThatThrownBy(() -> FileRangeLock.of(file, 0, 1).lock(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("maxWait");
  }

  @Test
  void aHashPicksALockableByteForEveryValue() throws Exception {
    Path file = directory.resolve("side.lock");
    for (long hash : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x9E3779B97F4A7C15L}) {
      FileRangeLock lock = FileRangeLock.ofHash(file, hash);
      try (FileRangeLock.Held held = lock.lock(Duration.ofSeconds(1))) {
        assertThat(held.isHeld()).isTrue();
        assertThat(lock.position()).isEqualTo(hash >>> 2);
      }
    }
  }

  @Test
  void aMissingDirectoryIsReportedAsLeaseRepositoryFailureNamingThePath() {
    Path file = directory.resolve("missing/dir/x.lock");

    assertThatThrownBy(() -> FileRangeLock.of(file, 0, 1).lock(Duration.ofSeconds(1)))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(file.toString());
  }

  private static Throwable awaitFailure(Future<?> future) throws InterruptedException {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the wait did not end within 30 s", e);
    }
    throw new AssertionError("the lock was taken although another thread held it");
  }

  private static Path realPath(Path file) {
    try {
      return file.toAbsolutePath().getParent().toRealPath().resolve(file.getFileName());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
