/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLeaseRepositoryConcurrencyTest {

  private static final String KEY = "job:contended";

  @TempDir Path directory;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() throws InterruptedException {
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void threadsSavingOneKeyThroughTwoInstancesGetExactlyOneWinnerPerRevision() throws Exception {
    List<LeaseRepository> repositories =
        List.of(FileLeaseRepository.open(directory), FileLeaseRepository.open(directory));
    List<Long> won = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger conflicts = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> savers = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      LeaseRepository repository = repositories.get(t % 2);
      savers.add(
          threads.submit(
              () -> {
                start.await();
                for (int i = 0; i < 15; i++) {
                  long revision =
                      compareAndSet(repository, "thread-" + Thread.currentThread().getId());
                  if (revision > 0) {
                    won.add(revision);
                  } else {
                    conflicts.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> saver : savers) {
      saver.get(120, TimeUnit.SECONDS);
    }

    long finalRevision = repositories.get(0).load(KEY).orElseThrow().revision();
    assertThat(finalRevision).isEqualTo(won.size());
    assertThat(won.size() + conflicts.get()).isEqualTo(90);
    assertThat(won).doesNotHaveDuplicates();
    assertThat(won.stream().sorted().toList()).isEqualTo(oneToN(finalRevision));
  }

  @Test
  void theKeyLockAdmitsOneThreadAtATimeOfOneRepository() throws Exception {
    LeaseRepository repository = FileLeaseRepository.open(directory);
    assertKeyLockExcludes(List.of(repository, repository, repository, repository));
  }

  @Test
  void theKeyLockAdmitsOneThreadAtATimeAcrossTwoInstancesOnOneDirectory() throws Exception {
    LeaseRepository first = FileLeaseRepository.open(directory);
    LeaseRepository second = FileLeaseRepository.open(directory);
    assertKeyLockExcludes(List.of(first, second, first, second));
  }

  @Test
  void aKeyLockWaitEndsWithInterruptedExceptionWhenTheThreadIsInterrupted() throws Exception {
    LeaseRepository repository = FileLeaseRepository.open(directory);
    LeaseRepository.KeyLock held = repository.lockKey(KEY);
    try {
      Thread[] waiting = new Thread[1];
      CountDownLatch started = new CountDownLatch(1);
      Future<LeaseRepository.KeyLock> waiter =
          threads.submit(
              () -> {
                waiting[0] = Thread.currentThread();
                started.countDown();
                return FileLeaseRepository.open(directory).lockKey(KEY);
              });
      started.await();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> waiting[0].getState() == Thread.State.WAITING);

      waiting[0].interrupt();

      assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(InterruptedException.class);
    } finally {
      held.close();
    }
  }

  @Test
  void savesGoOnPromptlyWhileAnotherThreadHoldsTheKeyLock() throws Exception {
    // A write-lock budget this short would fail the saves if they waited for the key lock.
    FileOptions impatient = FileOptions.builder().writeLockWait(Duration.ofMillis(250)).build();
    LeaseRepository holder = FileLeaseRepository.open(directory);
    LeaseRepository renewer = FileLeaseRepository.open(directory, impatient);
    CountDownLatch fenced = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    Future<?> fencedWork =
        threads.submit(
            () -> {
              LeaseRepository.KeyLock keyLock = holder.lockKey(KEY);
              try {
                fenced.countDown();
                done.await();
              } finally {
                keyLock.close();
              }
              return null;
            });
    fenced.await();

    for (int i = 0; i < 5; i++) {
      assertThat(compareAndSet(renewer, "renewer")).isEqualTo(i + 1);
    }

    assertThat(renewer.load(KEY)).map(LeaseSnapshot::revision).contains(5L);
    assertThat(fencedWork).isNotDone();
    done.countDown();
    fencedWork.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aSaveThatCannotGetTheWriteLockWithinItsBudgetFailsNamingTheLockFile() throws Exception {
    FileLeaseRepository repository =
        FileLeaseRepository.open(
            directory, FileOptions.builder().writeLockWait(Duration.ofMillis(200)).build());
    Path writeLock = new RecordNames(repository.directory(), KEY).writeLock();
    FileRangeLock.Held stuckWriter = FileRangeLock.of(writeLock, 0, 1).lock();
    try {
      assertThatThrownBy(() -> repository.save(Samples.firstWrite(KEY, "h-1")))
          .isInstanceOfSatisfying(
              LeaseRepositoryFailure.class, failure -> assertThat(failure.key()).contains(KEY))
          .hasMessageContaining("timed out after")
          .hasMessageContaining(writeLock.toString());
    } finally {
      stuckWriter.close();
    }
    assertThat(repository.load(KEY)).isEmpty();
  }

  @Test
  void anInterruptedSaveFailsWithoutWritingAndKeepsTheInterrupt() throws Exception {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    Path writeLock = new RecordNames(repository.directory(), KEY).writeLock();
    FileRangeLock.Held stuckWriter = FileRangeLock.of(writeLock, 0, 1).lock();
    try {
      Thread.currentThread().interrupt();

      assertThatThrownBy(() -> repository.save(Samples.firstWrite(KEY, "h-1")))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("interrupted");
      assertThat(Thread.interrupted()).isTrue();
    } finally {
      stuckWriter.close();
    }
    assertThat(repository.load(KEY)).isEmpty();
  }

  @Test
  void theKeyLocksOfDifferentKeysDoNotWaitForEachOther() throws Exception {
    LeaseRepository repository = FileLeaseRepository.open(directory);
    LeaseRepository.KeyLock a = repository.lockKey("a");
    try {
      Future<LeaseRepository.KeyLock> other = threads.submit(() -> repository.lockKey("b"));
      other.get(10, TimeUnit.SECONDS).close();
    } finally {
      a.close();
    }
  }

  @Test
  void aKeyLockIsReleasedByCloseFromAnyThreadAndCloseIsIdempotent() throws Exception {
    LeaseRepository repository = FileLeaseRepository.open(directory);
    LeaseRepository.KeyLock keyLock = repository.lockKey(KEY);

    threads.submit(keyLock::close).get(10, TimeUnit.SECONDS);
    keyLock.close();

    Future<LeaseRepository.KeyLock> next = threads.submit(() -> repository.lockKey(KEY));
    next.get(10, TimeUnit.SECONDS).close();
  }

  private void assertKeyLockExcludes(List<LeaseRepository> perThread) throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    AtomicInteger entries = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> workers = new ArrayList<>();
    for (LeaseRepository repository : perThread) {
      workers.add(
          threads.submit(
              () -> {
                start.await();
                for (int i = 0; i < 40; i++) {
                  LeaseRepository.KeyLock keyLock = repository.lockKey(KEY);
                  try {
                    mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    Thread.yield();
                    inside.decrementAndGet();
                    entries.incrementAndGet();
                  } finally {
                    keyLock.close();
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> worker : workers) {
      worker.get(60, TimeUnit.SECONDS);
    }
    assertThat(entries).hasValue(40 * perThread.size());
    assertThat(mostInside).hasValue(1);
  }

  /**
   * One compare-and-set increment of the key's record: the revision written, or 0 if another writer
   * moved first.
   */
  static long compareAndSet(LeaseRepository repository, String handle) {
    Optional<LeaseSnapshot> stored = repository.load(KEY);
    LeaseWrite next =
        stored
            .map(s -> s.renewal(Instant.now()))
            .orElseGet(
                () ->
                    LeaseSnapshot.firstAcquisition(
                        KEY, Samples.holder(handle), Samples.TTL, Instant.now()));
    try {
      repository.save(next);
      return next.snapshot().revision();
    } catch (RevisionConflict lost) {
      return 0;
    }
  }

  static List<Long> oneToN(long n) {
    return LongStream.rangeClosed(1, n).boxed().toList();
  }
}
