/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.Samples;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLeaseRepositoryCrossProcessTest {

  private static final Duration CHILD_START = Duration.ofSeconds(60);
  private static final String KEY = "report:nightly";

  @TempDir Path directory;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<ChildJvm> children = new ArrayList<>();

  @AfterEach
  void stopEverything() throws InterruptedException {
    children.forEach(ChildJvm::close);
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aKeyLockHeldByAnotherProcessIsWaitedForUntilThatProcessIsKilled() throws Exception {
    ChildJvm child = start(KeyLockHolderMain.class, directory.toString(), KEY);
    child.awaitLine("FENCED", CHILD_START);
    LeaseRepository repository = FileLeaseRepository.open(directory);

    Future<LeaseRepository.KeyLock> waiting = threads.submit(() -> repository.lockKey(KEY));

    await()
        .during(Duration.ofMillis(700))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !waiting.isDone());
    // The key lock does not block saves: the child's key lock leaves the write lock free.
    repository.save(Samples.firstWrite(KEY, "h-1"));

    child.kill();

    LeaseRepository.KeyLock keyLock = waiting.get(30, TimeUnit.SECONDS);
    keyLock.close();
  }

  @Test
  void compareAndSetFromSeveralProcessesHasExactlyOneWinnerPerRevision() throws Exception {
    int attempts = 40;
    List<ChildJvm> savers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      savers.add(
          start(
              CompareAndSetMain.class,
              directory.toString(),
              KEY,
              Integer.toString(attempts),
              "child-" + i));
    }
    for (ChildJvm saver : savers) {
      saver.awaitLine("READY", CHILD_START);
    }

    savers.forEach(saver -> saver.send("GO"));
    List<Long> won = new ArrayList<>();
    long reportedSuccesses = 0;
    for (ChildJvm saver : savers) {
      reportedSuccesses += Long.parseLong(saver.awaitLine("DONE", CHILD_START).substring(5));
      assertThat(saver.awaitExit(Duration.ofSeconds(30))).isZero();
      saver.stdoutLines().stream()
          .filter(line -> line.startsWith("WON "))
          .map(line -> Long.parseLong(line.substring(4)))
          .forEach(won::add);
    }

    long finalRevision =
        FileLeaseRepository.open(directory).load(KEY).map(LeaseSnapshot::revision).orElseThrow();
    assertThat(finalRevision).isEqualTo(reportedSuccesses);
    assertThat(won).hasSize((int) reportedSuccesses).doesNotHaveDuplicates();
    assertThat(won.stream().sorted().toList())
        .isEqualTo(FileLeaseRepositoryConcurrencyTest.oneToN(finalRevision));
  }

  private ChildJvm start(Class<?> main, String... args) {
    ChildJvm child = ChildJvm.start(main, args);
    children.add(child);
    return child;
  }
}
