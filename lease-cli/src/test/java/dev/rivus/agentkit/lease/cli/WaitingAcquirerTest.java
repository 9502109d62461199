/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waiting for a lease on fake time: what the user is told, and when the wait ends. */
class WaitingAcquirerTest {

  private static final Duration TTL = Duration.ofSeconds(20);
  private static final Duration HEARTBEAT = Duration.ofSeconds(5);
  private static final ProcessIdentity HOLDER =
      new ProcessIdentity("build-7", "boot-1", "pid:[1]", 100, "ticks:100");
  private static final ProcessIdentity WAITER =
      new ProcessIdentity("build-7", "boot-1", "pid:[1]", 200, "ticks:200");

  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();
  private final StringWriter err = new StringWriter();
  private final FakePlatform waiterPlatform = new FakePlatform(WAITER);
  private final LeaseManager waiter = waiterPlatform.newManager(repository, TTL, HEARTBEAT);

  @AfterEach
  void close() {
    waiter.close();
  }

  private WaitingAcquirer acquirer() {
    return new WaitingAcquirer(waiter, waiterPlatform, new PrintWriter(err, true), quiet);
  }

  private List<String> told() {
    return err.toString().lines().toList();
  }

  private boolean quiet;

  @Test
  void failsFastWithTheHeldCodeAndSaysWhoHoldsTheLease() {
    FakePlatform holderPlatform = new FakePlatform(HOLDER);
    waiterPlatform.markRunning(HOLDER);
    try (LeaseManager holder = holderPlatform.newManager(repository, TTL, HEARTBEAT);
        Lease held = holder.acquire("job")) {

      assertThatThrownBy(() -> acquirer().acquire("job", Duration.ZERO))
          .isInstanceOf(WaitingAcquirer.Held.class)
          .hasMessageContaining(
              "'job' is held by build-7 pid 100 (generation " + held.generation() + ", alive)")
          .hasMessageContaining("not waiting (use --wait DURATION)");
      assertThat(told()).isEmpty();
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void tellsAtOnceAndEveryFiveSecondsThenTakesOverAStoppedHolderAfterTheTtl() throws Exception {
    // The holder's clock never moves: it never renews, like a stopped process that is still alive.
    FakePlatform holderPlatform = new FakePlatform(HOLDER);
    waiterPlatform.markRunning(HOLDER);
    try (LeaseManager holder = holderPlatform.newManager(repository, TTL, HEARTBEAT)) {
      long stuck = holder.acquire("job").generation();
      long start = waiterPlatform.nanoTime();

      Lease lease = acquirer().acquire("job", Duration.ofMinutes(1));

      assertThat(lease.generation()).isGreaterThan(stuck);
      assertThat(Duration.ofNanos(waiterPlatform.nanoTime() - start)).isEqualTo(TTL);
      assertThat(told()).hasSize(4);
      assertThat(told().get(0))
          .isEqualTo(
              "lease: lease 'job' is held by build-7 pid 100 (generation "
                  + stuck
                  + ", alive); this process has seen its record unchanged for 0.0 s of the 20s"
                  + " TTL; waiting up to 1m");
      assertThat(told().get(1)).contains("unchanged for 5.0 s", "; still waiting");
      assertThat(told().get(3)).contains("unchanged for 15.0 s", "; still waiting");
      lease.close();
    }
  }

  @Test
  void givesUpWithTheHeldCodeWhenTheWaitEndsWhileTheHolderRenews() {
    // One clock for both: the holder's heartbeat runs while the waiter's wait advances time.
    FakePlatform shared = waiterPlatform;
    try (LeaseManager holder = shared.newManager(repository, TTL, HEARTBEAT);
        Lease held = holder.acquire("job")) {

      assertThatThrownBy(() -> acquirer().acquire("job", Duration.ofSeconds(12)))
          .isInstanceOf(WaitingAcquirer.Held.class)
          .hasMessageContaining("gave up after waiting 12s");
      assertThat(told()).hasSize(3);
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void quietlyItSaysNothingWhileWaitingNorWhenGivingUp() throws Exception {
    quiet = true;
    FakePlatform shared = waiterPlatform;
    try (LeaseManager holder = shared.newManager(repository, TTL, HEARTBEAT);
        Lease held = holder.acquire("job")) {

      assertThatThrownBy(() -> acquirer().acquire("job", Duration.ofSeconds(12)))
          .isInstanceOf(WaitingAcquirer.Held.class);
      assertThat(told()).isEmpty();
      assertThat(held.isHeld()).isTrue();
    }
  }
}
