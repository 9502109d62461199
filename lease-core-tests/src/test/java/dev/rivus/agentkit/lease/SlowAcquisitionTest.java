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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An acquiring write that took most of the TTL (a busy database) would hand out a lease that is
 * lost moments later: it is released again, and reported, or tried again within the wait.
 */
class SlowAcquisitionTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FakePlatform platform = Samples.platformOf(100);
  private final AtomicInteger slowWritesLeft = new AtomicInteger();
  private final Duration slowness = TTL.multipliedBy(8).dividedBy(10);
  private final LeaseRepository slow =
      new ForwardingLeaseRepository(store) {
        @Override
        public void save(LeaseWrite write) {
          super.save(write);
          if (write.raisesGeneration() && slowWritesLeft.getAndDecrement() > 0) {
            platform.advance(slowness); // the write took 8 s of a 10 s TTL
          }
        }
      };

  @Test
  void aLeaseWhoseAcquiringWriteTookMostOfTheTtlIsReleasedAndReported() {
    slowWritesLeft.set(1);
    try (LeaseManager manager = platform.newManager(slow, TTL, HEARTBEAT)) {

      assertThatThrownBy(() -> manager.acquire("busy"))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("acquiring lease 'busy' took 8.000 s of its 10.000 s TTL")
          .hasMessageContaining("released again");

      LeaseSnapshot stored = store.load("busy").orElseThrow();
      assertThat(stored.state()).as("the record written too late").isEqualTo(LeaseState.RELEASED);
      try (Lease next = manager.acquire("busy")) {
        assertThat(next.generation()).isGreaterThan(stored.generation());
        platform.advance(TTL.multipliedBy(2));
        assertThat(next.isHeld()).isTrue();
      }
    }
  }

  @Test
  void aWaitingAcquireTriesAgainAndGetsALeaseWithTimeToRenew() throws InterruptedException {
    slowWritesLeft.set(2);
    try (LeaseManager manager = platform.newManager(slow, TTL, HEARTBEAT)) {

      try (Lease lease = manager.acquire("busy", Duration.ofMinutes(1))) {
        assertThat(lease.isHeld()).isTrue();
        platform.advance(HEARTBEAT.dividedBy(2));
        assertThat(lease.isHeld()).as("soon after it was handed out").isTrue();
        platform.advance(TTL.multipliedBy(2));
        assertThat(lease.isHeld()).isTrue();
        assertThat(slowWritesLeft.get()).as("slow writes left").isNegative();
      }
    }
  }

  @Test
  void anAcquisitionThatLeavesAHeartbeatOfRoomIsHandedOut() {
    slowWritesLeft.set(1);
    Duration justEnough = TTL.minus(TTL.dividedBy(10)).minus(HEARTBEAT); // 7 s
    LeaseRepository slowButNotTooSlow =
        new ForwardingLeaseRepository(store) {
          @Override
          public void save(LeaseWrite write) {
            super.save(write);
            if (write.raisesGeneration() && slowWritesLeft.getAndDecrement() > 0) {
              platform.advance(justEnough);
            }
          }
        };
    try (LeaseManager manager = platform.newManager(slowButNotTooSlow, TTL, HEARTBEAT);
        Lease lease = manager.acquire("busy")) {
      platform.advance(TTL);
      assertThat(lease.isHeld()).isTrue();
    }
  }
}
