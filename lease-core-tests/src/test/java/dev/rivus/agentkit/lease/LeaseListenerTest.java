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
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.SchedulerFactory;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a manager tells its listener, and that a listener cannot harm the leases. */
class LeaseListenerTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private final FlakyRepository repository = new FlakyRepository(store);
  private final FakePlatform platform = Samples.platformOf(100);
  private final FakePlatform otherPlatform = Samples.platformOf(200);
  private final Recorder events = new Recorder();
  private final LeaseManager manager =
      platform
          .managerBuilder(repository)
          .ttl(TTL)
          .heartbeat(HEARTBEAT)
          .name("billing")
          .listener(events)
          .build();
  private final LeaseManager other = otherPlatform.newManager(store, TTL, HEARTBEAT);

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
                  "billing", "dead", taken.generation(), Acquisition.DEAD_HOLDER));
      assertThat(taken.generation()).isGreaterThan(dead.generation());
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
                  "billing", "silent", taken.generation(), Acquisition.TTL_TAKEOVER));
      assertThat(taken.generation()).isGreaterThan(silent.generation());
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
            platform
                .managerBuilder(store)
                .ttl(TTL)
                .heartbeat(HEARTBEAT)
                .listener(throwing)
                .build();
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
      List<LeaseEvent> told = List.copyOf(heard); // renewals go on adding to it
      assertThat(told.get(0)).isInstanceOf(LeaseEvent.Acquired.class);
      assertThat(told.subList(1, told.size())).allMatch(LeaseEvent.Renewed.class::isInstance);
    } finally {
      unblock.countDown();
    }
  }

  @Test
  void aManagerWithoutANameIsToldByItsRandomName() {
    Recorder heard = new Recorder();
    try (LeaseManager unnamed =
            platform.managerBuilder(store).ttl(TTL).heartbeat(HEARTBEAT).listener(heard).build();
        Lease lease = unnamed.acquire("task")) {
      assertThat(heard.all).hasSize(1);
      assertThat(heard.all.get(0).manager()).isEqualTo(unnamed.name()).isNotEmpty();
    }
  }

  @Test
  void aListenerThatBlocksInRenewedDelaysNoRenewalOfAnyLease() {
    CountDownLatch unblock = new CountDownLatch(1);
    LeaseListener blocking =
        new LeaseListener() {
          @Override
          public void renewed(LeaseEvent.Renewed event) {
            awaitQuietly(unblock);
          }
        };
    MemoryLeaseRepository real = new MemoryLeaseRepository();
    try (LeaseManager manager =
            LeaseManager.builder(real)
                .ttl(Duration.ofSeconds(1))
                .heartbeat(Duration.ofMillis(50))
                .listener(blocking)
                .build();
        Lease first = manager.acquire("first");
        Lease second = manager.acquire("second")) {
      long firstRevision = real.load("first").orElseThrow().revision();
      long secondRevision = real.load("second").orElseThrow().revision();

      // The listener blocks in its first renewed(); rounds go on, for more than a TTL.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  real.load("first").orElseThrow().revision() >= firstRevision + 25
                      && real.load("second").orElseThrow().revision() >= secondRevision + 25);
      assertThat(first.isHeld()).isTrue();
      assertThat(second.isHeld()).isTrue();
    } finally {
      unblock.countDown();
    }
  }

  @Test
  void nothingOfALeaseIsToldAfterItsEndEvenWhenARoundIsAnsweredLate() {
    CountDownLatch answer = new CountDownLatch(1);
    AtomicBoolean slow = new AtomicBoolean();
    MemoryLeaseRepository real = new MemoryLeaseRepository();
    LeaseRepository lateAnswers =
        new ForwardingLeaseRepository(real) {
          @Override
          public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
            List<SaveOutcome> outcomes = super.saveAll(writes);
            if (slow.getAndSet(false)) {
              awaitQuietly(answer); // written, but the answer comes after the lease's end
            }
            return outcomes;
          }
        };
    Recorder heard = new Recorder();
    try (LeaseManager manager =
        LeaseManager.builder(lateAnswers)
            .ttl(Duration.ofSeconds(1))
            .heartbeat(Duration.ofMillis(100))
            .listener(heard)
            .build()) {
      slow.set(true);
      Lease expiring = manager.acquire("expiring");
      await().atMost(Duration.ofSeconds(10)).until(() -> !expiring.isHeld()); // expired meanwhile
      answer.countDown();
      // A later acquisition's event comes after everything the late round told.
      manager.acquire("barrier").close();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> heard.all.stream().anyMatch(e -> e.key().equals("barrier")));

      List<LeaseEvent> ofExpiring =
          heard.all.stream().filter(e -> e.key().equals("expiring")).toList();
      assertThat(ofExpiring.get(0)).isInstanceOf(LeaseEvent.Acquired.class);
      assertThat(ofExpiring.get(ofExpiring.size() - 1))
          .as("the last event of a lease that expired, in %s", ofExpiring)
          .isInstanceOf(LeaseEvent.Lost.class);
    }
  }

  @Test
  void aStoreLostWhileALeaseIsBeingHeldIsToldAfterItsAcquisition() {
    AtomicReference<LeaseManager> self = new AtomicReference<>();
    AtomicBoolean armed = new AtomicBoolean(true);
    LeaseRepository doomed =
        new ForwardingLeaseRepository(store) {
          @Override
          public Optional<LeaseSnapshot> load(String key) {
            if (key.equals("doomed")) {
              throw new StoreLost("the store was deleted (test)", null);
            }
            return super.load(key);
          }
        };
    Recorder heard = new Recorder();
    SchedulerFactory racing =
        name -> {
          LeaseScheduler inner = platform.newScheduler(name);
          return new LeaseScheduler() {
            @Override
            public Cancellable schedule(Duration delay, Runnable task) {
              if (armed.getAndSet(false)) {
                // Another thread's acquisition meets the lost store while "task" is being held.
                assertThatThrownBy(() -> self.get().acquire("doomed"))
                    .isInstanceOf(StoreLost.class);
              }
              return inner.schedule(delay, task);
            }

            @Override
            public void execute(Lane lane, Runnable task) {
              inner.execute(lane, task);
            }

            @Override
            public void close() {
              inner.close();
            }
          };
        };
    try (LeaseManager manager =
        LeaseManager.builder(doomed)
            .ttl(TTL)
            .heartbeat(HEARTBEAT)
            .ticker(platform)
            .wallClock(platform.wallClock())
            .scheduler(racing)
            .currentProcess(platform.currentProcess())
            .livenessJudge(platform)
            .listener(heard)
            .build()) {
      self.set(manager);
      manager.acquire("task");

      assertThat(heard.all)
          .extracting(e -> e.getClass().getSimpleName())
          .containsExactly("Acquired", "Lost");
    }
  }

  @Test
  void anAcquisitionThatMeetsTheManagersCloseIsNeverToldOnTheAcquiringThread() throws Exception {
    CountDownLatch saving = new CountDownLatch(1);
    CountDownLatch carryOn = new CountDownLatch(1);
    MemoryLeaseRepository real = new MemoryLeaseRepository();
    LeaseRepository slowSave =
        new ForwardingLeaseRepository(real) {
          @Override
          public void save(LeaseWrite write) {
            if (write.key().equals("late") && write.snapshot().isHeld()) {
              saving.countDown();
              awaitQuietly(carryOn);
            }
            super.save(write);
          }
        };
    List<String> threads = new CopyOnWriteArrayList<>();
    LeaseListener recording =
        new LeaseListener() {
          @Override
          public void acquired(LeaseEvent.Acquired event) {
            threads.add(Thread.currentThread().getName());
          }

          @Override
          public void released(LeaseEvent.Released event) {
            threads.add(Thread.currentThread().getName());
          }
        };
    LeaseManager manager = LeaseManager.builder(slowSave).listener(recording).build();
    Thread acquirer =
        new Thread(
            () ->
                assertThatThrownBy(() -> manager.acquire("late"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed"),
            "user-acquirer");
    acquirer.start();
    assertThat(saving.await(10, TimeUnit.SECONDS)).isTrue();

    manager.close();
    carryOn.countDown();
    acquirer.join(TimeUnit.SECONDS.toMillis(30));

    assertThat(acquirer.isAlive()).isFalse();
    assertThat(threads).doesNotContain("user-acquirer");
    assertThat(real.load("late").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
  }

  @Test
  void aThreadFactoryThatFailsFailsTheAcquisitionAndLeavesNothingHeld() {
    MemoryLeaseRepository real = new MemoryLeaseRepository();
    try (LeaseManager manager = LeaseManager.builder(real).threadFactory(task -> null).build()) {
      assertThatThrownBy(() -> manager.acquire("task"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("threadFactory");

      assertThat(real.load("task").orElseThrow().state()).isEqualTo(LeaseState.RELEASED);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void eachRenewalRoundIsToldOnceWithItsCounts() {
    Lease first = manager.acquire("first");
    Lease second = manager.acquire("second");
    Lease third = manager.acquire("third");
    platform.advance(HEARTBEAT);
    assertThat(events.rounds).containsExactly(new RenewalRound("billing", 3, 3, 0, Duration.ZERO));

    repository.startFailing();
    platform.advance(HEARTBEAT);
    assertThat(events.rounds).last().isEqualTo(new RenewalRound("billing", 3, 0, 3, Duration.ZERO));
    repository.recover();
    first.close();
    second.close();
    third.close();
  }

  @Test
  void fencedWorkIsToldWithHowItEnded() throws Exception {
    Lease lease = manager.acquire("task");
    String done = lease.runFenced(token -> "done");
    assertThat(done).isEqualTo("done");
    assertThatThrownBy(
            () ->
                lease.runFenced(
                    token -> {
                      throw new IllegalStateException("the job's own failure");
                    }))
        .hasMessage("the job's own failure");
    assertThatThrownBy(
            () ->
                lease.runFenced(
                    token -> {
                      repository.startFailing();
                      platform.advance(TTL); // no renewal reaches the store: the lease expires
                      return "too late";
                    }))
        .isInstanceOf(LeaseLost.class);

    assertThat(events.fenced)
        .extracting(FencedWorkEnded::outcome)
        .containsExactly(
            FencedWorkEnded.Outcome.COMPLETED,
            FencedWorkEnded.Outcome.FAILED,
            FencedWorkEnded.Outcome.LOST);
    assertThat(events.fenced)
        .allSatisfy(
            ended -> {
              assertThat(ended.manager()).isEqualTo("billing");
              assertThat(ended.key()).isEqualTo("task");
              assertThat(ended.generation()).isEqualTo(lease.generation());
            });
    // The work that outlived its lease took the TTL on the fake clock; the others no time at all.
    assertThat(events.fenced).extracting(FencedWorkEnded::took).last().isEqualTo(TTL);
    // Its end is told after the loss.
    assertThat(events.all).last().isInstanceOf(LeaseEvent.Lost.class);
    repository.recover();
    lease.close();
  }

  /** Records every event, in order; rounds and fenced work apart. */
  private static final class Recorder implements LeaseListener {
    final List<LeaseEvent> all = new CopyOnWriteArrayList<>();
    final List<RenewalRound> rounds = new CopyOnWriteArrayList<>();
    final List<FencedWorkEnded> fenced = new CopyOnWriteArrayList<>();

    @Override
    public void renewalRound(RenewalRound round) {
      rounds.add(round);
    }

    @Override
    public void fencedWorkEnded(FencedWorkEnded ended) {
      fenced.add(ended);
    }

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
