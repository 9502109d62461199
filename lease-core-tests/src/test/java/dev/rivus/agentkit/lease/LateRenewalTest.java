/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A store too slow for the leases held (the JSON directory with 10,000 leases at a 10 s TTL lost
 * them all, with no event before the losses and 10,000 warning lines): a round that runs late is
 * told once, event and log line, before any lease is lost, and the leases lost together are logged
 * in one line. Fake time: the slow store moves the clock while it writes.
 */
class LateRenewalTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);
  private static final int LEASES = 100;

  private final FakePlatform platform = Samples.platformOf(100);
  private final MemoryLeaseRepository store = new MemoryLeaseRepository();
  private volatile Duration roundTakes = Duration.ZERO;
  private volatile boolean storeGone;
  private final LeaseRepository slow =
      new ForwardingLeaseRepository(store) {
        @Override
        public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
          if (storeGone) {
            throw new StoreLost("the store was deleted", null);
          }
          platform.advance(roundTakes); // runs the timers that fall due meanwhile, as a real one
          return super.saveAll(writes);
        }
      };
  private final List<LeaseEvent> events = new CopyOnWriteArrayList<>();
  private final LeaseManager manager =
      platform
          .managerBuilder(slow)
          .ttl(TTL)
          .heartbeat(HEARTBEAT)
          .name("billing")
          .listener(new Recorder())
          .build();

  private final Logger logger = Logger.getLogger("dev.rivus.agentkit.lease");
  private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            warnings.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private boolean usedParentHandlers;

  @BeforeEach
  void captureTheLog() {
    usedParentHandlers = logger.getUseParentHandlers();
    logger.setUseParentHandlers(false);
    logger.addHandler(capture);
  }

  @AfterEach
  void restoreTheLog() {
    manager.close();
    logger.removeHandler(capture);
    logger.setUseParentHandlers(usedParentHandlers);
  }

  @Test
  void aRoundThatRunsLateIsToldOnceBeforeAnyLossAndItsLossesInOneLine() {
    List<Lease> held = acquireAll();
    long firstGeneration = held.get(0).generation();

    // The round starts at 2 s; its leases were renewed at 0 s and are lost at 9 s (TTL less the
    // safety margin). A round on time leaves them 7 s; the round is late with half of that left,
    // at 5.5 s, and the store answers at 10 s.
    roundTakes = Duration.ofSeconds(8);
    platform.advance(HEARTBEAT);

    assertThat(held).noneMatch(Lease::isHeld);
    List<LeaseEvent.RenewalLate> late =
        events.stream()
            .filter(LeaseEvent.RenewalLate.class::isInstance)
            .map(LeaseEvent.RenewalLate.class::cast)
            .toList();
    assertThat(late)
        .containsExactly(
            new LeaseEvent.RenewalLate(
                "billing",
                "held-000",
                firstGeneration,
                LEASES,
                Duration.ofMillis(3500),
                Duration.ofMillis(3500)));
    int firstLoss = indexOfFirst(LeaseEvent.Lost.class);
    assertThat(events.indexOf(late.get(0))).isLessThan(firstLoss);
    assertThat(events.stream().filter(LeaseEvent.Lost.class::isInstance)).hasSize(LEASES);

    assertThat(warnings)
        .extracting(LogRecord::getMessage)
        .containsExactly(
            "lease renewals run late: a round renewing 100 leases of manager 'billing' has run for"
                + " 3.5 s and lease 'held-000' has 3.5 s of its TTL left (heartbeat 2.0 s, TTL"
                + " 10.0 s); the store is too slow for this many leases, or does not answer: hold"
                + " fewer leases per manager, lengthen the heartbeat and TTL, or use a faster"
                + " store (see each store's capacity in its docs)",
            "100 leases were lost at once (100 expired): 'held-000' generation "
                + firstGeneration
                + ", 'held-001' generation "
                + held.get(1).generation()
                + ", 'held-002' generation "
                + held.get(2).generation()
                + " and 97 more; the first: lease 'held-000' generation "
                + firstGeneration
                + " expired: it could not be renewed within the TTL");
  }

  @Test
  void aRoundOnTimeTellsNothingThoughItTakesLongerThanAHeartbeat() {
    List<Lease> held = acquireAll();

    // Rounds back to back: a lease is 2 x 2.5 s past its renewal when the next round ends, within
    // the 5.5 s that make a round late.
    roundTakes = Duration.ofMillis(2500);
    for (int i = 0; i < 5; i++) {
      platform.advance(HEARTBEAT);
    }

    assertThat(held).allMatch(Lease::isHeld);
    assertThat(events).noneMatch(LeaseEvent.RenewalLate.class::isInstance);
    assertThat(warnings).isEmpty();
  }

  @Test
  void aRoundLateEveryTimeIsToldOncePerRound() {
    List<Lease> held = acquireAll();

    // Back to back, each round ends 8 s after its leases' last renewal: late, not lost (9 s).
    roundTakes = Duration.ofSeconds(4);
    for (int i = 0; i < 3; i++) {
      platform.advance(HEARTBEAT);
    }

    assertThat(held).allMatch(Lease::isHeld);
    long rounds = events.stream().filter(LeaseEvent.Renewed.class::isInstance).count() / LEASES;
    assertThat(rounds).isGreaterThan(1);
    assertThat(events.stream().filter(LeaseEvent.RenewalLate.class::isInstance))
        .hasSize((int) rounds);
    assertThat(warnings).hasSize((int) rounds);
  }

  @Test
  void leasesThatExpireOneAfterAnotherAreLoggedInALinePerHeartbeat() {
    // Acquired one by one, 10 ms apart, as a store too slow for them would: their deadlines too
    // come one by one, and each tick expires one.
    List<Lease> held = new ArrayList<>();
    for (int i = 0; i < LEASES; i++) {
      held.add(manager.acquire(String.format("held-%03d", i)));
      platform.advance(Duration.ofMillis(10));
    }

    roundTakes = Duration.ofSeconds(20); // a round that hangs past every deadline
    platform.advance(HEARTBEAT);

    assertThat(held).noneMatch(Lease::isHeld);
    assertThat(events.stream().filter(LeaseEvent.Lost.class::isInstance)).hasSize(LEASES);
    assertThat(warnings)
        .extracting(LogRecord::getMessage)
        .satisfiesExactly(
            late -> assertThat(late).startsWith("lease renewals run late: a round renewing 100"),
            first ->
                assertThat(first)
                    .isEqualTo(
                        "lease 'held-000' generation "
                            + held.get(0).generation()
                            + " expired: it could not be renewed within the TTL"),
            rest ->
                assertThat(rest)
                    .startsWith(
                        "99 leases were lost in the last 2.0 s (99 expired): 'held-001' generation ")
                    .contains(" and 96 more; the first: lease 'held-001' generation "));
  }

  @Test
  void aStoreLostWithManyLeasesIsLoggedInOneLine() {
    List<Lease> held = acquireAll();

    storeGone = true;
    platform.advance(HEARTBEAT);

    assertThat(held).noneMatch(Lease::isHeld);
    assertThat(warnings)
        .singleElement()
        .extracting(LogRecord::getMessage)
        .asString()
        .startsWith("100 leases were lost at once (100 store lost): 'held-000' generation ")
        .contains(" and 97 more; the first: lease 'held-000' generation ")
        .endsWith(" was lost with its store: the store was deleted");
    assertThat(events.stream().filter(LeaseEvent.Lost.class::isInstance)).hasSize(LEASES);
  }

  private List<Lease> acquireAll() {
    List<Lease> held = new ArrayList<>();
    for (int i = 0; i < LEASES; i++) {
      held.add(manager.acquire(String.format("held-%03d", i)));
    }
    return held;
  }

  private int indexOfFirst(Class<? extends LeaseEvent> kind) {
    for (int i = 0; i < events.size(); i++) {
      if (kind.isInstance(events.get(i))) {
        return i;
      }
    }
    return Integer.MAX_VALUE;
  }

  /** Records the events this test looks at, in order. */
  private final class Recorder implements LeaseListener {
    @Override
    public void renewed(LeaseEvent.Renewed event) {
      events.add(event);
    }

    @Override
    public void renewalLate(LeaseEvent.RenewalLate event) {
      events.add(event);
    }

    @Override
    public void lost(LeaseEvent.Lost event) {
      events.add(event);
    }
  }
}
