/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

/**
 * Threads that race read-compare-write cycles on one key, as acquiring and renewing holders do:
 * each loads the record, writes the next revision over the one it read (alternately a renewal and a
 * new generation under its own holder), and records the revisions it won. A conflict means another
 * thread won that revision; the loser reads again.
 */
final class ConcurrentSavers {

  /** Attempts per thread at most, so a very fast repository still ends the race early. */
  private static final int MAX_ATTEMPTS = 5_000;

  private final List<LeaseRepository> instances;
  private final String key;
  private final int threads;
  private final Duration duration;
  private final Duration patience;
  private final String handlePrefix;

  ConcurrentSavers(
      List<LeaseRepository> instances,
      String key,
      int threads,
      Duration duration,
      Duration patience) {
    this(instances, key, threads, duration, patience, "saver-");
  }

  /**
   * Savers whose handle ids start with {@code handlePrefix}, so that savers in several processes
   * write under distinct holders.
   */
  ConcurrentSavers(
      List<LeaseRepository> instances,
      String key,
      int threads,
      Duration duration,
      Duration patience,
      String handlePrefix) {
    this.instances = List.copyOf(instances);
    this.key = key;
    this.threads = threads;
    this.duration = duration;
    this.patience = patience;
    this.handlePrefix = handlePrefix;
  }

  /** What the savers won, all together. */
  record Outcome(List<Long> revisionsWon, long generationRaisesWon, long conflicts) {}

  /**
   * Seeds the record at revision 1, races the threads for {@code duration}, and sums their wins.
   */
  Outcome run(Workers workers) throws Exception {
    instances.get(0).save(Samples.firstWrite(key, "seed"));
    return race(workers);
  }

  /**
   * Races the threads for {@code duration} on a record someone else seeded, and sums their wins.
   */
  Outcome race(Workers workers) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Outcome>> savers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      HolderIdentity self = Samples.holder(handlePrefix + i);
      LeaseRepository repository = instances.get(i % instances.size());
      savers.add(workers.submit(() -> cycles(repository, self, start)));
    }
    start.countDown();
    List<Long> won = new ArrayList<>();
    long raises = 0;
    long conflicts = 0;
    for (Future<Outcome> saver : savers) {
      Outcome one = Workers.await(saver, duration.plus(patience), "a saver thread");
      won.addAll(one.revisionsWon());
      raises += one.generationRaisesWon();
      conflicts += one.conflicts();
    }
    return new Outcome(won, raises, conflicts);
  }

  private Outcome cycles(LeaseRepository repository, HolderIdentity self, CountDownLatch start)
      throws InterruptedException {
    start.await();
    long end = System.nanoTime() + duration.toNanos();
    List<Long> won = new ArrayList<>();
    long raises = 0;
    long conflicts = 0;
    for (int attempt = 0; attempt < MAX_ATTEMPTS && System.nanoTime() < end; attempt++) {
      LeaseSnapshot current =
          repository
              .load(key)
              .orElseThrow(() -> new AssertionError("the seeded record of '" + key + "' vanished"));
      boolean raise = attempt % 2 == 1;
      LeaseWrite next =
          raise
              ? current.acquisition(self, Samples.TTL, Samples.TIME)
              : current.renewal(Samples.TIME.plusNanos(attempt * 1_000L));
      try {
        repository.save(next);
        won.add(next.snapshot().revision());
        raises += raise ? 1 : 0;
      } catch (RevisionConflict lost) {
        conflicts++;
      }
    }
    return new Outcome(won, raises, conflicts);
  }
}
