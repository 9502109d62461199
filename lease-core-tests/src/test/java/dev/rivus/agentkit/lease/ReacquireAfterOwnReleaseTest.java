/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A manager that acquires a key it released itself writes without reading the record first: it
 * wrote the tombstone, and the write's expected revision keeps it exact. If anyone wrote the key
 * since, the write loses its race and the acquisition reads and judges as always.
 */
class ReacquireAfterOwnReleaseTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final AtomicInteger loads = new AtomicInteger();
  private final LeaseRepository counting =
      new ForwardingLeaseRepository(store) {
        @Override
        public Optional<LeaseSnapshot> load(String key) {
          loads.incrementAndGet();
          return super.load(key);
        }
      };
  private final FakePlatform platform = Samples.platformOf(100);

  @Test
  void acquiringAKeyItReleasedReadsNothing() {
    try (LeaseManager manager = platform.newManager(counting, TTL, HEARTBEAT)) {
      long first;
      try (Lease lease = manager.acquire("own")) {
        first = lease.generation();
      }
      int loadsBefore = loads.get();

      try (Lease again = manager.acquire("own")) {
        assertThat(again.generation()).isEqualTo(first + 1);
        assertThat(loads.get()).as("reads by the second acquisition").isEqualTo(loadsBefore);
        assertThat(store.load("own").orElseThrow().holder()).isEqualTo(again.holder());
      }
    }
  }

  @Test
  void aKeyWrittenByAnotherSinceItsReleaseIsReadAndJudgedAgain() {
    try (LeaseManager manager = platform.newManager(counting, TTL, HEARTBEAT);
        LeaseManager other = platform.newManager(store, TTL, HEARTBEAT)) {
      manager.acquire("shared").close();
      long othersGeneration;
      try (Lease between = other.acquire("shared")) {
        othersGeneration = between.generation();
      }
      int loadsBefore = loads.get();

      try (Lease again = manager.acquire("shared")) {
        assertThat(again.generation()).isEqualTo(othersGeneration + 1);
        assertThat(loads.get()).as("reads after the lost race").isEqualTo(loadsBefore + 1);
      }
    }
  }

  @Test
  void aKeyHeldByAnotherSinceItsReleaseIsNotTaken() {
    try (LeaseManager manager = platform.newManager(counting, TTL, HEARTBEAT);
        LeaseManager other = platform.newManager(store, TTL, HEARTBEAT)) {
      manager.acquire("taken").close();
      try (Lease holder = other.acquire("taken")) {

        assertThatThrownBy(() -> manager.acquire("taken")).isInstanceOf(LeaseHeld.class);
        assertThat(holder.isHeld()).isTrue();
        assertThat(store.load("taken").orElseThrow().holder()).isEqualTo(holder.holder());
      }
    }
  }

  @Test
  void beyondItsBoundTheOldestTombstoneIsForgottenAndReadAgain() {
    int bound = 4_096; // OwnTombstones.LIMIT
    try (LeaseManager manager = platform.newManager(counting, TTL, HEARTBEAT)) {
      for (int i = 0; i <= bound; i++) {
        manager.acquire("key-" + i).close();
      }
      int loadsBefore = loads.get();

      manager.acquire("key-" + bound).close();
      assertThat(loads.get()).as("the newest tombstone, used").isEqualTo(loadsBefore);
      manager.acquire("key-0").close();
      assertThat(loads.get()).as("the oldest, forgotten").isEqualTo(loadsBefore + 1);
    }
  }
}
