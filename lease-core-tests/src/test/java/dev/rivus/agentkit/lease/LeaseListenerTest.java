/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.LeaseEvent.Acquisition;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a manager tells its listener, and that a listener cannot harm the leases. */
class LeaseListenerTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);
  private static final LeaseConfig CONFIG = LeaseConfig.of(TTL, HEARTBEAT);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FlakyRepository repository = new FlakyRepository(store);
  private final FakePlatform platform = Samples.platformOf(100);
  private final FakePlatform otherPlatform = Samples.platformOf(200);
  private final Recorder events = new Recorder();
  private final LeaseManager manager =
      platform.managerBuilder(repository).config(CONFIG).name("billing").listener(events).build();
  private final LeaseManager other = otherPlatform.newManager(store, CONFIG);

  @AfterEach
  void closeManagers() {
    manager.close();
    other.close();
  }

  @Test
  void aNewKeyIsAcquiredAsNewAndItsReleaseIsTold() {
    long generation;
    try (Lease lease = manager.acquire("task")) {
      generation = lease.generation();
    }

    assertThat(events.all)
        .containsExactly(
            new LeaseEvent.Acquired("billing", "task", generation, Acquisition.NEW),
            new LeaseEvent.Released("billing", "task", generation));
  }

  @Test
  void eachWayOfAcquiringIsTold() {
    long released;
    try (Lease first = manager.acquire("released")) {
      released = first.generation();
    }
    try (Lease again = manager.acquire("released")) {
      assertThat(events.acquired())
          .last()
          .isEqualTo(
              new LeaseEvent.Acquired(
                  "billing", "released", released + 1, Acquisition.AFTER_RELEASE));
    }

    // A holder on this machine whose process is gone is taken over at once.
    Lease dead = other.acquire("dead");
    platform.kill(otherPlatform.currentProcess());
    try (Lease taken = manager.acquire("dead")) {
      assertThat(events.acquired())
          .last()
          .isEqualTo(
              new LeaseEvent.Acquired(
                  "billing", "dead", dead.generation() + 1, Acquisition.DEAD_HOLDER));
    }

    // A live holder that stops renewing is taken over after the TTL.
    platform.markRunning(otherPlatform.currentProcess());
    Lease silent = other.acquire("silent");
    assertThatThrownBy(() -> manager.acquire("silent")).isInstanceOf(LeaseHeld.class);
    platform.advance(TTL);
    try (Lease taken = manager.acquire("silent")) {
      assertThat(events.acquired())
          .last()
          .isEqualTo(
              new LeaseEvent.Acquired(
                  "billing", "silent", silent.generation() + 1, Acquisition.TTL_TAKEOVER));
    }
  }

  @Test
  void aLeaseHeldByAnotherIsToldWithTheHoldersFacts() {
    platform.markRunning(otherPlatform.currentProcess());
    try (Lease held = other.acquire("task")) {
      platform.advance(Duration.ofSeconds(3));
      manager.acquire("task").close(); // first sight: not yet held for long
    } catch (LeaseHeld expected) {
      // the listener is what this test looks at
    }

    assertThat(events.all).hasSize(1);
    LeaseEvent.HeldByAnother event = (LeaseEvent.HeldByAnother) events.all.get(0);
    assertThat(event.manager()).isEqualTo("billing");
    assertThat(event.key()).isEqualTo("task");
    assertThat(event.generation()).isEqualTo(event.holder().generation());
    assertThat(event.holder().holder().process()).isEqualTo(otherPlatform.currentProcess());
    assertThat(event.ttl()).isEqualTo(TTL);
    assertThat(event.observedUnchanged()).isEqualTo(Duration.ZERO);
    assertThat(event.holderLiveness()).isEqualTo(Liveness.ALIVE);
  }

  @Test
  void renewalsTheirFailuresAndTheLossAreTold() {
    Lease lease = manager.acquire("task");
    platform.advance(HEARTBEAT);
    assertThat(events.all).last().isInstanceOf(LeaseEvent.Renewed.class);
    LeaseEvent.Renewed renewed = (LeaseEvent.Renewed) events.all.get(events.all.size() - 1);
    assertThat(renewed.key()).isEqualTo("task");
    assertThat(renewed.generation()).isEqualTo(lease.generation());
    assertThat(renewed.latency()).isEqualTo(Duration.ZERO); // fake time stands still in a call

    repository.startFailing();
    platform.advance(HEARTBEAT);
    LeaseEvent.RenewalFailed failed =
        (LeaseEvent.RenewalFailed) events.all.get(events.all.size() - 1);
    assertThat(failed.generation()).isEqualTo(lease.generation());
    assertThat(failed.cause()).isInstanceOf(LeaseRepositoryFailure.class);
    // What is left of the TTL (less the holder's safety margin) since the last renewal.
    assertThat(failed.ttlLeft()).isPositive().isLessThanOrEqualTo(TTL.minus(HEARTBEAT));

    platform.advance(TTL);
    assertThat(lease.isHeld()).isFalse();
    LeaseEvent.Lost lost = (LeaseEvent.Lost) events.all.get(events.all.size() - 1);
    assertThat(lost)
        .isEqualTo(
            new LeaseEvent.Lost(
                "billing", "task", lease.generation(), LeaseLost.Reason.EXPIRED, lost.loss()));
    assertThat(lost.loss().reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
    repository.recover();
    lease.close();
    assertThat(events.all).filteredOn(LeaseEvent.Released.class::isInstance).isEmpty();
  }

  @Test
  void aListenerThatThrowsChangesNothing() {
    LeaseListener throwing =
        new LeaseListener() {
          @Override
          public void acquired(LeaseEvent.Acquired event) {
            throw new IllegalStateException("listener bug (test)");
          }

          @Override
          public void renewed(LeaseEvent.Renewed event) {
            throw new AssertionError("listener bug (test)");
          }
        };
    try (LeaseManager careless =
            platform.managerBuilder(store).config(CONFIG).listener(throwing).build();
        Lease lease = careless.acquire("task")) {
      long revision = store.load("task").orElseThrow().revision();
      platform.advance(HEARTBEAT);
      platform.advance(HEARTBEAT);

      assertThat(lease.isHeld()).isTrue();
      assertThat(store.load("task").orElseThrow().revision()).isEqualTo(revision + 2);
    }
    assertThat(store.load("task").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
  }

  @Test
  void aListenerThatBlocksDelaysNoRenewal() throws Exception {
    CountDownLatch unblock = new CountDownLatch(1);
    List<LeaseEvent> heard = new CopyOnWriteArrayList<>();
    LeaseListener blocking =
        new LeaseListener() {
          @Override
          public void acquired(LeaseEvent.Acquired event) {
            heard.add(event);
            try {
              unblock.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }

          @Override
          public void renewed(LeaseEvent.Renewed event) {
            heard.add(event);
          }
        };
    MemoryLeaseRepository real = new MemoryLeaseRepository();
    try (LeaseManager manager =
            LeaseManager.builder(real)
                .ttl(Duration.ofSeconds(1))
                .heartbeat(Duration.ofMillis(50))
                .listener(blocking)
                .build();
        Lease lease = manager.acquire("task")) {
      long revision = real.load("task").orElseThrow().revision();

      // While the listener blocks in acquired(), renewals go on, and their events wait.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> real.load("task").orElseThrow().revision() >= revision + 3);
      assertThat(lease.isHeld()).isTrue();
      assertThat(heard).hasSize(1);

      unblock.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() >= 4);
      assertThat(heard.get(0)).isInstanceOf(LeaseEvent.Acquired.class);
      assertThat(heard.subList(1, heard.size())).allMatch(LeaseEvent.Renewed.class::isInstance);
    } finally {
      unblock.countDown();
    }
  }

  @Test
  void aManagerWithoutANameIsToldByItsRandomName() {
    Recorder heard = new Recorder();
    try (LeaseManager unnamed =
            platform.managerBuilder(store).config(CONFIG).listener(heard).build();
        Lease lease = unnamed.acquire("task")) {
      assertThat(heard.all).hasSize(1);
      assertThat(heard.all.get(0).manager()).isEqualTo(unnamed.name()).isNotEmpty();
    }
  }

  /** Records every event, in order. */
  private static final class Recorder implements LeaseListener {
    final List<LeaseEvent> all = new CopyOnWriteArrayList<>();

    List<LeaseEvent> acquired() {
      return all.stream().filter(LeaseEvent.Acquired.class::isInstance).toList();
    }

    @Override
    public void acquired(LeaseEvent.Acquired event) {
      all.add(event);
    }

    @Override
    public void heldByAnother(LeaseEvent.HeldByAnother event) {
      all.add(event);
    }

    @Override
    public void renewed(LeaseEvent.Renewed event) {
      all.add(event);
    }

    @Override
    public void renewalFailed(LeaseEvent.RenewalFailed event) {
      all.add(event);
    }

    @Override
    public void lost(LeaseEvent.Lost event) {
      all.add(event);
    }

    @Override
    public void released(LeaseEvent.Released event) {
      all.add(event);
    }
  }
}
