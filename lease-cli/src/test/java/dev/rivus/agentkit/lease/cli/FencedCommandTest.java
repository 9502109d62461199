/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lease run}'s command under the key lock: giving up on the wait, and losses at its edges.
 */
class FencedCommandTest {

  private static final Duration PATIENCE = Duration.ofMillis(300);
  private static final Duration TTL = Duration.ofSeconds(2);
  private static final Duration HEARTBEAT = Duration.ofMillis(50);

  @TempDir Path dir;

  /**
   * The watcher gives up while the key lock is being taken by a wait that ignores interrupts, so
   * that its interrupt meets the re-read of the record, which SQLite fails as interrupted: that is
   * still the wait running out (75), not a repository failure (74). Found in review.
   */
  @Test
  void aGiveUpThatLandsJustAfterTheKeyLockWasTakenSaysHeldAndRunsNothing() throws Exception {
    try (SqliteLeaseRepository sqlite = SqliteLeaseRepository.open(dir.resolve("leases.db"));
        LeaseRepository slowKeyLock =
            new ForwardingLeaseRepository(sqlite) {
              @Override
              public KeyLock lockKey(String key, Duration silenceLimit)
                  throws InterruptedException {
                KeyLock held = super.lockKey(key, silenceLimit);
                sleepIgnoringInterrupts(PATIENCE.plusMillis(300));
                return held;
              }
            };
        LeaseManager manager =
            LeaseManager.builder(slowKeyLock).ttl(TTL).heartbeat(HEARTBEAT).build();
        Lease lease = manager.acquire("k")) {
      AtomicBoolean ran = new AtomicBoolean();
      FencedCommand fenced = new FencedCommand(new PrintWriter(new StringWriter()), true);

      assertThatThrownBy(
              () ->
                  fenced.run(
                      lease,
                      PATIENCE,
                      () -> {
                        ran.set(true);
                        return FencedCommand.Outcome.exited(0);
                      }))
          .isInstanceOf(WaitingAcquirer.Held.class)
          .hasMessageContaining("still holds the key lock after 300ms");
      assertThat(ran).as("the command ran").isFalse();
      assertThat(Thread.interrupted()).as("an interrupt left behind").isFalse();
    }
  }

  /** A loss that the command's supervisor did not see (it came as the command ended) is said. */
  @Test
  void aLossAsTheCommandEndsExits76SayingSo() throws Exception {
    StringWriter err = new StringWriter();
    try (SqliteLeaseRepository sqlite = SqliteLeaseRepository.open(dir.resolve("leases.db"));
        LeaseManager manager = LeaseManager.builder(sqlite).ttl(TTL).heartbeat(HEARTBEAT).build();
        Lease lease = manager.acquire("k")) {
      int code =
          new FencedCommand(new PrintWriter(err, true), true)
              .run(
                  lease,
                  PATIENCE,
                  () -> FencedCommand.Outcome.exited(loseThenExitWith(sqlite, lease, 0)));

      assertThat(code).isEqualTo(ExitCodes.LOST);
    }
    assertThat(err.toString())
        .startsWith("lease run: lease 'k' generation ")
        .contains(") as the command ended (it exited with 0)");
  }

  /**
   * A command whose own exit code happens to be 76 did not report the loss: lease still says it
   * (found in review: the code alone was taken for the supervisor's report).
   */
  @Test
  void aCommandThatExitsWith76ItselfAsTheLeaseIsLostStillGetsTheLossSaid() throws Exception {
    StringWriter err = new StringWriter();
    try (SqliteLeaseRepository sqlite = SqliteLeaseRepository.open(dir.resolve("leases.db"));
        LeaseManager manager = LeaseManager.builder(sqlite).ttl(TTL).heartbeat(HEARTBEAT).build();
        Lease lease = manager.acquire("k")) {
      int code =
          new FencedCommand(new PrintWriter(err, true), true)
              .run(
                  lease,
                  PATIENCE,
                  () ->
                      FencedCommand.Outcome.exited(
                          loseThenExitWith(sqlite, lease, ExitCodes.LOST)));

      assertThat(code).isEqualTo(ExitCodes.LOST);
    }
    assertThat(err.toString())
        .contains(") as the command ended (it exited with " + ExitCodes.LOST + ")");
  }

  /** The supervisor says why it stopped the command; nothing is said twice. */
  @Test
  void aLossTheCommandReportedItselfIsNotSaidAgain() throws Exception {
    StringWriter err = new StringWriter();
    try (SqliteLeaseRepository sqlite = SqliteLeaseRepository.open(dir.resolve("leases.db"));
        LeaseManager manager = LeaseManager.builder(sqlite).ttl(TTL).heartbeat(HEARTBEAT).build();
        Lease lease = manager.acquire("k")) {
      int code =
          new FencedCommand(new PrintWriter(err, true), true)
              .run(
                  lease,
                  PATIENCE,
                  () -> {
                    loseThenExitWith(sqlite, lease, 0);
                    return new FencedCommand.Outcome(ExitCodes.LOST, true, true);
                  });

      assertThat(code).isEqualTo(ExitCodes.LOST);
    }
    assertThat(err.toString()).isEmpty();
  }

  /** An operator's release, which the holder finds at its next renewal (every 50 ms). */
  private static int loseThenExitWith(LeaseRepository repository, Lease lease, int code) {
    new ForcedRelease(repository, Clock.systemUTC()).release(lease.key(), lease.generation());
    Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> !lease.isHeld());
    return code;
  }

  private static void sleepIgnoringInterrupts(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    boolean interrupted = false;
    while (System.nanoTime() - end < 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(end - System.nanoTime());
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
