/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static dev.rivus.agentkit.lease.jdbc.Refusals.refused;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.platform.SystemProcesses;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two machines on one database: managers with different host identities, each with a pool of its
 * own, share a table. Host B is this machine as the system platform describes it (its real
 * identity, judged by its real liveness judge, which reads {@code /proc}); host A is another
 * machine, whose identity has another boot id but the same pid namespace (every Linux machine's
 * initial pid namespace has the same inode number), and whose pid names a process here that is
 * dead, or alive, or alive but started at another time. Time is fake (a {@link FakePlatform} per
 * host, as ticker and scheduler), so that each TTL is counted exactly and nothing sleeps: a host
 * whose platform is not advanced stands still, as a stopped process would.
 *
 * <p>What must hold: B takes A's lease over only after it has seen the record unchanged for the
 * TTL, never at once by judging A's pid on this machine; wall clocks hours apart change nothing.
 * Run on each server by a subclass.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
abstract class JdbcTwoHostsTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);
  private static final String KEY = "report:nightly";

  /** The server this test runs on. */
  abstract TestServer server();

  @RegisterExtension final FreshTables tables = new FreshTables(server());

  private final SystemProcesses thisHost = SystemProcesses.detect();
  private final FakePlatform timeA = new FakePlatform();
  private final FakePlatform timeB = new FakePlatform();
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final List<LeaseEvent> eventsA = new CopyOnWriteArrayList<>();
  private final List<LeaseEvent> eventsB = new CopyOnWriteArrayList<>();
  private LeaseRepository repositoryA; // set before each test
  private LeaseRepository repositoryB;

  /** What the pid of host A's holder names on this machine. */
  enum PidHere {
    /** A process that ran here and exited. */
    DEAD(Liveness.GONE),
    /** This JVM, but A's record says it started at another time: a reused pid, here. */
    REUSED(Liveness.GONE),
    /** This JVM, with its own start time. */
    ALIVE(Liveness.ALIVE);

    /** How this machine would judge the pid if the record were its own. */
    final Liveness judgedHere;

    PidHere(Liveness judgedHere) {
      this.judgedHere = judgedHere;
    }
  }

  @BeforeEach
  void openTheTableFromTwoHosts() {
    ProcessIdentity self = thisHost.currentProcess();
    Assumptions.assumeTrue(
        self.bootId() != null && self.pidNamespace() != null,
        "this machine's platform reads no boot id or pid namespace, so it judges no pid: " + self);
    String table = tables.create();
    repositoryA = open(table);
    repositoryB = open(table);
  }

  private LeaseRepository open(String table) {
    HikariDataSource pool = server().pool();
    resources.add(pool);
    return JdbcLeaseRepository.open(pool, JdbcOptions.builder().tableName(table).build());
  }

  @AfterEach
  void closeEverything() throws Exception {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
    resources.clear();
  }

  /**
   * A's holder names a pid that, judged on this machine, is dead or reused (or alive): B still
   * refuses at once with liveness unknown, keeps refusing until it has seen the record unchanged
   * for the TTL, and then takes over with the next generation, as a TTL takeover; A, once it runs
   * again, learns at its next renewal that its lease was taken over.
   */
  @ParameterizedTest
  @EnumSource(PidHere.class)
  void aHolderOnAnotherHostIsTakenOverOnlyAfterTheTtlWhateverItsPidNamesHere(PidHere pid)
      throws Exception {
    ProcessIdentity elsewhere = onHostA(pid);
    assertThat(thisHost.judge(asIfOnThisHost(elsewhere)))
        .as("how this machine judges %s's pid and start time when the record is its own", pid)
        .isEqualTo(pid.judgedHere);
    LeaseManager hostA = hostA(elsewhere, Duration.ZERO);
    LeaseManager hostB = hostB();
    Lease held = hostA.acquire(KEY);
    assertThat(repositoryB.load(KEY).orElseThrow().holder().process())
        .as("host A's identity, read back by host B")
        .isEqualTo(elsewhere);

    LeaseHeld atOnce =
        refused("host B's first acquire, while A's record is fresh", () -> hostB.acquire(KEY));
    assertThat(atOnce.holderLiveness()).as("A's liveness, judged on B").isEqualTo(Liveness.UNKNOWN);
    assertThat(atOnce.generation()).isEqualTo(held.generation());

    timeB.advance(TTL.minusMillis(1)); // A stands still: no renewal
    assertThat(refused("host B's acquire 1 ms before the TTL", () -> hostB.acquire(KEY)))
        .extracting(LeaseHeld::observedUnchanged)
        .isEqualTo(TTL.minusMillis(1));
    timeB.advance(Duration.ofMillis(1));
    Lease taken = hostB.acquire(KEY);

    assertThat(taken.generation()).as("B's generation").isGreaterThan(held.generation());
    assertThat(eventsB)
        .filteredOn(LeaseEvent.Acquired.class::isInstance)
        .map(event -> ((LeaseEvent.Acquired) event).how())
        .containsExactly(LeaseEvent.Acquisition.TTL_TAKEOVER);
    timeA.advance(HEARTBEAT); // A runs again: its renewal finds B's record
    assertThat(held.isHeld()).as("A's lease after B took it over").isFalse();
    assertThat(held.lost().toCompletableFuture().getNow(null))
        .extracting(LeaseLost::reason)
        .isEqualTo(LeaseLost.Reason.TAKEN_OVER);
    assertThat(taken.isHeld()).isTrue();
  }

  /**
   * While A renews, B never takes over, however long it watches, even though A's pid is dead here;
   * once A stops, B takes over exactly one TTL after it first saw A's last renewal.
   */
  @Test
  void aHolderOnAnotherHostThatRenewsIsNeverTakenOverAndOneThatStopsOnlyAfterTheTtl()
      throws Exception {
    LeaseManager hostA = hostA(onHostA(PidHere.DEAD), Duration.ZERO);
    LeaseManager hostB = hostB();
    Lease held = hostA.acquire(KEY);

    for (int beat = 0; beat < 3 * TTL.dividedBy(HEARTBEAT); beat++) {
      timeA.advance(HEARTBEAT);
      timeB.advance(HEARTBEAT);
      LeaseHeld refusal =
          refused(
              "host B's acquire at heartbeat " + beat + " while A renews",
              () -> hostB.acquire(KEY));
      assertThat(refusal.observedUnchanged()).isLessThan(HEARTBEAT);
    }
    long lastRevision = repositoryB.load(KEY).orElseThrow().revision();
    assertThat(lastRevision).as("A's renewals").isGreaterThan(3 * TTL.dividedBy(HEARTBEAT));

    timeB.advance(TTL.minusMillis(1)); // A stands still from here on
    refused("host B's acquire 1 ms before the TTL", () -> hostB.acquire(KEY));
    timeB.advance(Duration.ofMillis(1));
    try (Lease taken = hostB.acquire(KEY)) {
      assertThat(taken.generation()).isGreaterThan(held.generation());
    }
  }

  /**
   * A's wall clock is hours (or days) ahead of or behind B's: the records carry each writer's own
   * time, and still nothing changes. Each renews without a refusal while the other watches for
   * three TTLs, neither takes over early, the lease passes from A to B on release and back to A
   * only after the TTL, and the generation rises by one each time.
   */
  @ParameterizedTest
  @ValueSource(strings = {"PT6H", "-PT6H", "P3D", "-P3D"})
  void wallClocksHoursApartChangeNothing(String offsetOfA) throws Exception {
    Duration offset = Duration.parse(offsetOfA);
    LeaseManager hostA = hostA(onHostA(PidHere.DEAD), offset);
    LeaseManager hostB = hostB();

    Lease first = hostA.acquire(KEY);
    assertThat(repositoryB.load(KEY).orElseThrow().updatedAt())
        .as("the time A wrote, by its own clock")
        .isEqualTo(timeB.now().plus(offset));
    bothRunForThreeTtls(first, hostB);

    first.close();
    Lease second = hostB.acquire(KEY); // a tombstone: at once, whatever its time says
    assertThat(second.generation()).isGreaterThan(first.generation());
    assertThat(repositoryA.load(KEY).orElseThrow().updatedAt())
        .as("the time B wrote, by its own clock")
        .isEqualTo(timeB.now());
    bothRunForThreeTtls(second, hostA);

    timeA.advance(TTL.minusMillis(1)); // B stands still from here on
    assertThat(refused("host A's acquire 1 ms before the TTL", () -> hostA.acquire(KEY)))
        .extracting(LeaseHeld::holderLiveness)
        .isEqualTo(Liveness.UNKNOWN);
    timeA.advance(Duration.ofMillis(1));
    Lease third = hostA.acquire(KEY);
    assertThat(third.generation()).isGreaterThan(second.generation());

    timeB.advance(HEARTBEAT);
    assertThat(second.isHeld()).as("B's lease after A took it over").isFalse();
    assertThat(third.isHeld()).isTrue();
    assertThat(eventsA)
        .as("A's events")
        .noneMatch(LeaseEvent.RenewalFailed.class::isInstance)
        .filteredOn(LeaseEvent.Lost.class::isInstance)
        .isEmpty();
    assertThat(eventsB)
        .as("B's events")
        .noneMatch(LeaseEvent.RenewalFailed.class::isInstance)
        .filteredOn(LeaseEvent.Lost.class::isInstance)
        .extracting(event -> ((LeaseEvent.Lost) event).reason())
        .containsExactly(LeaseLost.Reason.TAKEN_OVER);
  }

  /** Both hosts' time runs, a heartbeat at a time: the holder renews, the other never gets in. */
  private void bothRunForThreeTtls(Lease holding, LeaseManager watcher) {
    long revision = repositoryA.load(KEY).orElseThrow().revision();
    for (int beat = 0; beat < 3 * TTL.dividedBy(HEARTBEAT); beat++) {
      timeA.advance(HEARTBEAT);
      timeB.advance(HEARTBEAT);
      refused("the watcher's acquire at heartbeat " + beat, () -> watcher.acquire(KEY));
    }
    LeaseSnapshot now = repositoryA.load(KEY).orElseThrow();
    assertThat(holding.isHeld()).as("the holder's lease after three TTLs").isTrue();
    assertThat(now.generation()).isEqualTo(holding.generation());
    assertThat(now.revision())
        .as("revision after a renewal every heartbeat for three TTLs")
        .isGreaterThanOrEqualTo(revision + 3 * TTL.dividedBy(HEARTBEAT));
  }

  /** Host A: another machine, on fake time, with its wall clock {@code offset} from B's. */
  private LeaseManager hostA(ProcessIdentity identity, Duration offset) {
    LeaseManager manager =
        LeaseManager.builder(repositoryA)
            .ttl(TTL)
            .heartbeat(HEARTBEAT)
            .name("host-a")
            .ticker(timeA)
            .scheduler(timeA)
            .wallClock(Clock.offset(timeA.wallClock(), offset))
            .currentProcess(identity)
            // A cannot see this machine's processes: every holder of B's is unknown to it.
            .livenessJudge(LivenessJudge.unknown())
            .listener(recorder(eventsA))
            .build();
    resources.add(manager);
    return manager;
  }

  /** Host B: this machine, its real identity and liveness judge, on fake time. */
  private LeaseManager hostB() {
    LeaseManager manager =
        LeaseManager.builder(repositoryB)
            .ttl(TTL)
            .heartbeat(HEARTBEAT)
            .name("host-b")
            .ticker(timeB)
            .scheduler(timeB)
            .wallClock(timeB.wallClock())
            .currentProcess(thisHost.currentProcess())
            .livenessJudge(thisHost)
            .listener(recorder(eventsB))
            .build();
    resources.add(manager);
    return manager;
  }

  /**
   * A process of host A: another host name and boot id, this machine's pid namespace (the initial
   * one, as on every Linux machine), and a pid that means {@code pid} here.
   */
  private ProcessIdentity onHostA(PidHere pid) throws Exception {
    ProcessIdentity self = thisHost.currentProcess();
    long number;
    String start;
    switch (pid) {
      case DEAD -> {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        number = exited.pid();
        start = "ticks:1";
      }
      case REUSED -> {
        number = self.pid();
        start = "ticks:1";
      }
      default -> {
        number = self.pid();
        start = String.valueOf(self.processStart());
      }
    }
    return new ProcessIdentity(
        "host-a.example", UUID.randomUUID().toString(), self.pidNamespace(), number, start);
  }

  /** The same process facts, but with this machine's host name and boot id. */
  private ProcessIdentity asIfOnThisHost(ProcessIdentity elsewhere) {
    ProcessIdentity self = thisHost.currentProcess();
    return new ProcessIdentity(
        self.host(),
        self.bootId(),
        elsewhere.pidNamespace(),
        elsewhere.pid(),
        elsewhere.processStart());
  }

  private static LeaseListener recorder(List<LeaseEvent> events) {
    return new LeaseListener() {
      @Override
      public void acquired(LeaseEvent.Acquired event) {
        events.add(event);
      }

      @Override
      public void renewalFailed(LeaseEvent.RenewalFailed event) {
        events.add(event);
      }

      @Override
      public void lost(LeaseEvent.Lost event) {
        events.add(event);
      }
    };
  }
}
