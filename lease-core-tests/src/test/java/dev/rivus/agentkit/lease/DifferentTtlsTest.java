/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Parties configured with different TTLs on one key: the record carries the TTL its holder
 * promised, and an observer waits for the longer of its own and the record's.
 */
class DifferentTtlsTest {

  private static final Duration LONG_TTL = Duration.ofSeconds(60);
  private static final Duration LONG_HEARTBEAT = Duration.ofSeconds(15);
  private static final Duration SHORT_TTL = Duration.ofSeconds(1);
  private static final Duration SHORT_HEARTBEAT = Duration.ofMillis(250);

  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();
  private final FakePlatform holderPlatform = Samples.platformOf(100);
  private final FakePlatform observerPlatform = Samples.platformOf(200);
  private final LeaseManager longHolder =
      holderPlatform.newManager(repository, LONG_TTL, LONG_HEARTBEAT);
  private final LeaseManager shortObserver =
      observerPlatform.newManager(repository, SHORT_TTL, SHORT_HEARTBEAT);

  @AfterEach
  void close() {
    longHolder.close();
    shortObserver.close();
  }

  /**
   * The reproduction of the report: a 60 s holder that runs 8 s without renewing (its heartbeat is
   * 15 s) and an observer with a 2 s TTL that waits 7 s. The observer must not take it over.
   */
  @Test
  void anObserverWithAShortTtlWaitsForTheLongerTtlTheHolderPromised() throws Exception {
    observerPlatform.markRunning(holderPlatform.currentProcess());
    try (Lease lease = longHolder.acquire("km")) {
      assertThat(repository.load("km").orElseThrow().ttl()).isEqualTo(LONG_TTL);

      assertThatThrownBy(() -> shortObserver.acquire("km", Duration.ofSeconds(7)))
          .isInstanceOfSatisfying(
              LeaseHeld.class,
              held -> {
                assertThat(held.ttl()).as("the TTL the observer waits for").isEqualTo(LONG_TTL);
                assertThat(held.observedUnchanged()).isGreaterThanOrEqualTo(Duration.ofSeconds(7));
              });
      assertThat(lease.isHeld()).isTrue();
      assertThat(repository.load("km").orElseThrow().holder()).isEqualTo(lease.holder());
    }
  }

  @Test
  void aStoppedHolderWithALongTtlIsTakenOverOnlyAfterItsOwnTtl() {
    observerPlatform.markRunning(holderPlatform.currentProcess());
    Lease stopped = longHolder.acquire("km"); // its clock never moves: it never renews

    assertThatThrownBy(() -> shortObserver.acquire("km")).isInstanceOf(LeaseHeld.class);
    observerPlatform.advance(LONG_TTL.minusMillis(1));
    assertThatThrownBy(() -> shortObserver.acquire("km")).isInstanceOf(LeaseHeld.class);
    observerPlatform.advance(Duration.ofMillis(1));

    try (Lease successor = shortObserver.acquire("km")) {
      assertThat(successor.generation()).isGreaterThan(stopped.generation());
      assertThat(repository.load("km").orElseThrow().ttl()).isEqualTo(SHORT_TTL);
    }
  }

  @Test
  void anObserverWithALongerTtlThanTheHolderWaitsForItsOwn() {
    FakePlatform shortHolderPlatform = Samples.platformOf(300);
    try (LeaseManager shortHolder =
            shortHolderPlatform.newManager(repository, SHORT_TTL, SHORT_HEARTBEAT);
        LeaseManager longObserver =
            observerPlatform.newManager(repository, LONG_TTL, LONG_HEARTBEAT)) {
      observerPlatform.markRunning(shortHolderPlatform.currentProcess());
      Lease stopped = shortHolder.acquire("km");

      assertThatThrownBy(() -> longObserver.acquire("km")).isInstanceOf(LeaseHeld.class);
      observerPlatform.advance(LONG_TTL.minusMillis(1));
      assertThatThrownBy(() -> longObserver.acquire("km"))
          .isInstanceOfSatisfying(
              LeaseHeld.class, held -> assertThat(held.ttl()).isEqualTo(LONG_TTL));
      observerPlatform.advance(Duration.ofMillis(1));
      try (Lease successor = longObserver.acquire("km")) {
        assertThat(successor.generation()).isGreaterThan(stopped.generation());
      }
    }
  }

  /**
   * A record written before TTLs were recorded reads with the longest TTL: it is taken over when
   * its holder is seen gone, never by a guess of its TTL.
   */
  @Test
  void aRecordWithoutAKnownTtlIsTakenOverOnlyWhenItsHolderIsSeenGone() {
    ProcessIdentity legacy = Samples.sibling(400);
    observerPlatform.markRunning(legacy);
    repository.save(
        new LeaseWrite(
            LeaseWrite.Intent.ACQUIRE,
            new LeaseSnapshot(
                "legacy",
                7,
                3,
                LeaseState.HELD,
                new HolderIdentity(legacy, "old-1"),
                LeaseConfig.MAX_DURATION,
                Instant.parse("2025-06-01T00:00:00Z")),
            0));

    observerPlatform.advance(Duration.ofDays(365));
    assertThatThrownBy(() -> shortObserver.acquire("legacy"))
        .isInstanceOf(LeaseHeld.class)
        .hasMessageContaining("unknown TTL");
    observerPlatform.kill(legacy);

    try (Lease successor = shortObserver.acquire("legacy")) {
      assertThat(successor.generation()).isGreaterThan(7);
    }
  }
}
