/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.actuate;

import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.RenewalRound;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What this application's lease managers hold and how their renewal rounds went, learnt from their
 * events, for the {@code leases} endpoint and the health indicator.
 *
 * <p>Each event costs one update of a concurrent map, with no I/O and no lock that a reader holds:
 * the managers tell it on their timers, which must never wait. Thread-safe: several managers may
 * share one instance.
 */
public final class HeldLeases implements LeaseListener {

  private final Clock clock;
  private final Map<Held.Id, Held> held = new ConcurrentHashMap<>();
  private final Map<String, Rounds> rounds = new ConcurrentHashMap<>();
  // The managers whose running round was told late; a manager runs one round at a time.
  private final Set<String> lateNow = ConcurrentHashMap.newKeySet();

  /** Tracks on the system clock. */
  public HeldLeases() {
    this(Clock.systemUTC());
  }

  /**
   * Tracks on {@code clock}.
   *
   * @param clock the clock of the instants shown
   */
  public HeldLeases(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * One lease held now.
   *
   * @param manager the name of the manager that holds it
   * @param key the key
   * @param generation the generation held, the fencing token's value
   * @param heldSince when it was acquired
   * @param lastRenewal when it was last renewed, or null if not yet
   * @param renewalFailing whether its last renewal failed (and is being tried again)
   */
  public record Held(
      String manager,
      String key,
      long generation,
      Instant heldSince,
      @Nullable Instant lastRenewal,
      boolean renewalFailing) {

    private record Id(String manager, String key) {}

    private Id id() {
      return new Id(manager, key);
    }
  }

  /**
   * The last renewal rounds of one manager.
   *
   * @param manager the manager's name
   * @param lastRound when its last round ended, or null if none has
   * @param lastRoundTook how long that round took, or null
   * @param lastRoundLeases how many leases that round renewed or tried to
   * @param lastRoundFailed how many of them failed
   * @param late whether the last round ran late (its leases came near their deadline), or one runs
   *     late now
   */
  public record Rounds(
      String manager,
      @Nullable Instant lastRound,
      @Nullable Duration lastRoundTook,
      int lastRoundLeases,
      int lastRoundFailed,
      boolean late) {

    private static Rounds none(String manager) {
      return new Rounds(manager, null, null, 0, 0, false);
    }
  }

  /**
   * The leases held now, by manager and key.
   *
   * @return a snapshot, sorted
   */
  public List<Held> held() {
    return held.values().stream()
        .sorted(Comparator.comparing(Held::manager).thenComparing(Held::key))
        .toList();
  }

  /**
   * Each manager's last rounds, for the managers that held a lease or ran a round.
   *
   * @return a snapshot, sorted by manager
   */
  public List<Rounds> rounds() {
    return rounds.values().stream().sorted(Comparator.comparing(Rounds::manager)).toList();
  }

  @Override
  public void acquired(LeaseEvent.Acquired event) {
    Held lease =
        new Held(event.manager(), event.key(), event.generation(), clock.instant(), null, false);
    held.put(lease.id(), lease);
    rounds.putIfAbsent(event.manager(), Rounds.none(event.manager()));
  }

  @Override
  public void renewed(LeaseEvent.Renewed event) {
    Instant now = clock.instant();
    held.computeIfPresent(
        new Held.Id(event.manager(), event.key()),
        (id, lease) ->
            lease.generation() == event.generation()
                ? new Held(
                    id.manager(), id.key(), lease.generation(), lease.heldSince(), now, false)
                : lease);
  }

  @Override
  public void renewalFailed(LeaseEvent.RenewalFailed event) {
    held.computeIfPresent(
        new Held.Id(event.manager(), event.key()),
        (id, lease) ->
            lease.generation() == event.generation()
                ? new Held(
                    id.manager(),
                    id.key(),
                    lease.generation(),
                    lease.heldSince(),
                    lease.lastRenewal(),
                    true)
                : lease);
  }

  @Override
  public void renewalLate(LeaseEvent.RenewalLate event) {
    // Told while the late round still runs: late now, and still late when it ends.
    rounds.compute(
        event.manager(),
        (manager, last) -> {
          Rounds before = last == null ? Rounds.none(manager) : last;
          return new Rounds(
              manager,
              before.lastRound(),
              before.lastRoundTook(),
              before.lastRoundLeases(),
              before.lastRoundFailed(),
              true);
        });
    lateNow.add(event.manager());
  }

  @Override
  public void renewalRound(RenewalRound round) {
    boolean late = lateNow.remove(round.manager());
    rounds.put(
        round.manager(),
        new Rounds(
            round.manager(), clock.instant(), round.took(), round.leases(), round.failed(), late));
  }

  @Override
  public void lost(LeaseEvent.Lost event) {
    forget(event.manager(), event.key(), event.generation());
  }

  @Override
  public void released(LeaseEvent.Released event) {
    forget(event.manager(), event.key(), event.generation());
  }

  private void forget(String manager, String key, long generation) {
    held.computeIfPresent(
        new Held.Id(manager, key), (id, lease) -> lease.generation() == generation ? null : lease);
  }
}
