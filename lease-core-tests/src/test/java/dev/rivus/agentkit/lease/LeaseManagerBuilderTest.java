/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.platform.SchedulerFactory;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** The manager's builder: each option once, clear errors, and each part really used. */
class LeaseManagerBuilderTest {

  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();

  @Test
  void anOptionSetTwiceOrTwoThatExcludeEachOtherAreErrors() {
    LeaseManagerBuilder builder = LeaseManager.builder(repository).ttl(Duration.ofSeconds(20));

    assertThatThrownBy(() -> builder.ttl(Duration.ofSeconds(30)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("ttl was already set to PT20S");
    LeaseManagerBuilder threads = LeaseManager.builder(repository).threadFactory(Thread::new);
    assertThatThrownBy(() -> threads.scheduler(SchedulerFactory.system()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("threadFactory was already set");
    LeaseManagerBuilder named = LeaseManager.builder(repository).name("a");
    assertThatThrownBy(() -> named.name("b"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("name was already set to a");
  }

  @Test
  void theGraceIsZeroOrPositiveAndSetOnce() {
    assertThatThrownBy(() -> LeaseManager.builder(repository).grace(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("grace must be zero or positive, was PT-0.001S");
    LeaseManagerBuilder builder = LeaseManager.builder(repository).grace(Duration.ZERO);
    assertThatThrownBy(() -> builder.grace(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("grace was already set to PT0S");
    assertThatThrownBy(() -> builder.grace(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("grace");
  }

  @Test
  void aNullArgumentIsANullPointerExceptionNamingTheParameter() {
    LeaseManagerBuilder builder = LeaseManager.builder(repository);

    assertThatThrownBy(() -> LeaseManager.builder(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("repository");
    assertThatThrownBy(() -> builder.ticker(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("ticker");
    assertThatThrownBy(() -> builder.listener(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("listener");
    assertThatThrownBy(() -> builder.livenessJudge(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("livenessJudge");
  }

  @Test
  void aBadNameOrDurationIsRefusedWithTheValue() {
    assertThatThrownBy(() -> LeaseManager.builder(repository).name("two words"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'two words'");
    assertThatThrownBy(() -> LeaseManager.builder(repository).name("x".repeat(65)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                LeaseManager.builder(repository)
                    .ttl(Duration.ofSeconds(4))
                    .heartbeat(Duration.ofSeconds(3))
                    .build())
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageContaining("heartbeat × 2 must not exceed ttl");
  }

  @Test
  void theDefaultsAndATtlAloneGiveTheExpectedConfiguration() {
    try (LeaseManager defaults = LeaseManager.builder(repository).build();
        LeaseManager ttlOnly =
            LeaseManager.builder(repository).ttl(Duration.ofSeconds(20)).build()) {
      assertThat(defaults.config()).isEqualTo(LeaseConfig.defaults());
      assertThat(ttlOnly.config())
          .isEqualTo(new LeaseConfig(Duration.ofSeconds(20), Duration.ofSeconds(5)));
    }
  }

  @Test
  void theThreadFactoryMakesTheManagersThreadsNamedAfterIt() throws Exception {
    List<Thread> made = new CopyOnWriteArrayList<>();
    ThreadFactory counting =
        task -> {
          Thread thread = new Thread(task);
          thread.setDaemon(true);
          made.add(thread);
          return thread;
        };
    try (LeaseManager manager =
            LeaseManager.builder(repository).threadFactory(counting).name("billing").build();
        Lease lease = manager.acquire("task")) {
      assertThat(manager.name()).isEqualTo("billing");
      assertThat(manager.toString()).contains("billing");
      assertThat(made).isNotEmpty();
      assertThat(made).allSatisfy(t -> assertThat(t.getName()).startsWith("lease-billing-"));
    }
  }

  @Test
  void theWallClockIsWhatRecordsSay() {
    Instant fixed = Instant.parse("2030-05-06T07:08:09.123456Z");
    try (LeaseManager manager =
            LeaseManager.builder(repository).wallClock(Clock.fixed(fixed, ZoneOffset.UTC)).build();
        Lease lease = manager.acquire("task")) {
      assertThat(repository.load("task").orElseThrow().updatedAt()).isEqualTo(fixed);
      assertThat(lease.generation()).isEqualTo(LeaseSnapshot.firstGeneration(fixed));
    }
  }

  @Test
  void aLivenessJudgeDecidesWhenAHolderIsTakenOverAtOnce() {
    FakePlatform platform = Samples.platformOf(100);
    ProcessIdentity elsewhere = Samples.inAnotherContainer(300);
    try (LeaseManager holder = platform.managerBuilder(repository).build();
        LeaseManager podAware =
            LeaseManager.builder(repository)
                .ticker(platform)
                .wallClock(platform.wallClock())
                .scheduler(platform)
                .currentProcess(elsewhere)
                .livenessJudge(holderProcess -> Liveness.GONE) // say, its pod was deleted
                .build();
        LeaseManager cautious =
            LeaseManager.builder(repository)
                .ticker(platform)
                .wallClock(platform.wallClock())
                .scheduler(platform)
                .currentProcess(Samples.sibling(400))
                .livenessJudge(LivenessJudge.unknown())
                .build()) {
      Lease held = holder.acquire("task");
      platform.kill(platform.currentProcess()); // gone, as /proc would tell a sibling

      assertThatThrownBy(() -> cautious.acquire("task"))
          .isInstanceOfSatisfying(
              LeaseHeld.class, e -> assertThat(e.holderLiveness()).isEqualTo(Liveness.UNKNOWN));
      try (Lease taken = podAware.acquire("task")) {
        assertThat(taken.generation()).isEqualTo(held.generation() + 1);
        assertThat(taken.holder().process()).isEqualTo(elsewhere);
      }
    }
  }
}
