/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.Acquisitions;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseEvent.Acquisition;
import dev.rivus.agentkit.lease.LeaseException;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository.KeyWatch;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/** The lease manager: acquisition and takeover decisions; its {@link Renewer} keeps leases held. */
public final class DefaultLeaseManager implements LeaseManager {

  /**
   * Acquisition attempts that lose a revision race before giving up; each one re-reads the record.
   */
  private static final int MAX_RACES = 64;

  private static final Duration MAX_POLL = Duration.ofMillis(200);

  /**
   * A waiter with a watch looks again at least this often, or every heartbeat if that is longer.
   */
  private static final Duration MIN_RECHECK = Duration.ofSeconds(1);

  /**
   * How long a manager that released a key lets the waiters its release woke try first, when it
   * waits for the key again at once: longer than a woken waiter's read and write (a hand-off takes
   * 1 to 7 ms at p99 on PostgreSQL and SQLite), short beside any work done under a lease.
   */
  static final Duration HAND_OFF = Duration.ofMillis(5);

  /** A stored generation this far ahead of the wall clock means a clock was set back or ahead. */
  private static final long CLOCK_BEHIND_MICROS = 1_000_000;

  private static final Duration CLOCK_WARNING_INTERVAL = Duration.ofMinutes(1);
  private static final long NEVER_WARNED = Long.MIN_VALUE;

  /** What the manager is made of; handed to the classes that do its work, not the manager. */
  private final ManagerParts parts;

  private final LivenessJudge livenessJudge;
  private final ProcessIdentity self;

  /** Unique among managers: it prefixes the handle ids written to records. */
  private final String managerId;

  private final AtomicLong handles = new AtomicLong();
  private final AtomicLong lastClockWarning = new AtomicLong(NEVER_WARNED);
  private final Observations observations;
  private final WakeSpreads wakeSpreads;

  /** In key order, so that a renewal round hands its batch to the repository in key order. */
  private final Set<ManagedLease> held = new ConcurrentSkipListSet<>(ManagedLease.KEY_ORDER);

  private final Set<FencedRunner> fencedWork = ConcurrentHashMap.newKeySet();
  private final Releases releases;
  private final Renewer renewer;

  /** All its leases reach of the manager besides the parts. */
  private final LeaseOwner leaseOwner = new OwnerOfLeases();

  private volatile boolean closed;

  /**
   * Creates a manager; see {@link dev.rivus.agentkit.lease.LeaseManagerBuilder}.
   *
   * @param settings what the manager is made of
   */
  public DefaultLeaseManager(ManagerSettings settings) {
    this.livenessJudge = settings.livenessJudge();
    this.self = settings.currentProcess();
    String random = UUID.randomUUID().toString().substring(0, 13);
    String given = settings.name();
    String name = given != null ? given : random;
    this.managerId = given != null ? given + "-" + random.substring(0, 8) : random;
    Ticker ticker = settings.ticker();
    this.observations = new Observations(ticker::nanoTime, settings.config().ttl());
    this.wakeSpreads = new WakeSpreads(ticker);
    LeaseScheduler scheduler = settings.scheduler().newScheduler("lease-" + name);
    this.parts =
        new ManagerParts(
            name,
            settings.repository(),
            ticker,
            settings.wallClock(),
            scheduler,
            new Timing(settings.config()),
            settings.config().ttl().plus(settings.grace()),
            new Events(settings.listener(), scheduler, name),
            new Warnings(scheduler),
            new OwnTombstones(ticker));
    this.releases = new Releases(parts, this::forget);
    this.renewer = new Renewer(parts, held, this::storeLost, this::checkKeyLocks);
  }

  @Override
  public Lease acquire(String key) {
    LeaseKeys.requireValid(key);
    try {
      return attempt(key);
    } catch (TooSlow slow) {
      throw slow.failure;
    }
  }

  @Override
  public Lease acquire(String key, Duration maxWait) throws InterruptedException {
    LeaseKeys.requireValid(key);
    Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must be zero or positive, was " + maxWait);
    }
    long start = parts.ticker().nanoTime();
    // Opened before the first attempt, so that a release landing after it is not missed.
    Optional<KeyWatch> watch =
        maxWait.isZero() ? Optional.empty() : parts.repository().watchKey(key);
    try {
      if (watch.isPresent() && parts.ownTombstones().releasedWithin(key, HAND_OFF)) {
        // This manager knew of its release first: trying at once, it would win the key back from
        // every waiter its release woke, for as long as it loops.
        parts.ticker().sleep(min(HAND_OFF, maxWait));
      }
      boolean woken = false;
      // A wake-up after which the same generation still holds was no hand-off (a store that wakes
      // on any write, a lost notice's re-check): only a new holder means another waiter was first.
      long heldGeneration = -1;
      while (true) {
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while waiting for lease '" + key + "'");
        }
        try {
          return attempt(key);
        } catch (LeaseHeld held) {
          Duration remaining = maxWait.minusNanos(parts.ticker().nanoTime() - start);
          if (remaining.isNegative() || remaining.isZero()) {
            throw held;
          }
          Duration untilTtl = held.ttl().minus(held.observedUnchanged());
          if (watch.isPresent()) {
            if (woken && held.generation() != heldGeneration) {
              wakeSpreads.lost(key); // woken by a release, and another waiter was first
            }
            heldGeneration = held.generation();
            woken = awaitRelease(watch.get(), held, untilRecheck(remaining, untilTtl));
            if (woken) {
              // Waiters woken together by one release answer one after another, not all at once.
              Duration spread = wakeSpreads.beforeAnswer(key);
              if (!spread.isZero()) {
                parts.ticker().sleep(min(spread, remaining));
              }
            }
          } else {
            parts.ticker().sleep(pause(remaining, untilTtl));
          }
        } catch (TooSlow slow) {
          Duration remaining = maxWait.minusNanos(parts.ticker().nanoTime() - start);
          if (remaining.isNegative() || remaining.isZero()) {
            throw slow.failure;
          }
          parts.ticker().sleep(pause(remaining, remaining));
        }
      }
    } finally {
      watch.ifPresent(KeyWatch::close);
    }
  }

  @Override
  public Acquisitions acquireAll(Collection<String> keys) {
    List<String> distinct = distinctKeys(keys);
    try {
      return acquireEach(distinct);
    } catch (TooSlow slow) {
      throw slow.failure;
    } catch (StoreLost lost) {
      storeLost(lost); // the leases this manager holds were in that store too
      throw lost;
    }
  }

  private static List<String> distinctKeys(Collection<String> keys) {
    Objects.requireNonNull(keys, "keys");
    List<String> distinct = new ArrayList<>(keys.size());
    Set<String> seen = new HashSet<>();
    for (String key : keys) {
      if (!seen.add(LeaseKeys.requireValid(key))) {
        throw new IllegalArgumentException("lease '" + key + "' is asked for twice");
      }
      distinct.add(key);
    }
    return distinct;
  }

  /**
   * Rounds of one read and one write of the keys still open, until none lost a race (or {@link
   * #MAX_RACES} rounds ran). A failure of a round gives back what earlier rounds acquired.
   */
  private Acquisitions acquireEach(List<String> keys) {
    BatchResult result = new BatchResult();
    List<String> open = keys;
    try {
      for (int race = 0; race < MAX_RACES && !open.isEmpty(); race++) {
        open = acquireRound(open, race == 0, result);
      }
    } catch (RuntimeException | Error failure) {
      releases.closeAll(new ArrayList<>(result.acquired.values()));
      throw failure;
    }
    for (String key : open) {
      result.failed.put(key, lostRaces(key));
    }
    return result.inOrderOf(keys);
  }

  /** What an {@link #acquireAll} has got so far, by key. Confined to its calling thread. */
  private static final class BatchResult {
    final Map<String, ManagedLease> acquired = new HashMap<>();
    final Map<String, LeaseHeld> held = new HashMap<>();
    final Map<String, LeaseRepositoryFailure> failed = new HashMap<>();

    Acquisitions inOrderOf(List<String> keys) {
      List<Lease> leases = new ArrayList<>(acquired.size());
      Map<String, LeaseHeld> heldInOrder = new LinkedHashMap<>();
      Map<String, LeaseRepositoryFailure> failedInOrder = new LinkedHashMap<>();
      for (String key : keys) {
        ManagedLease lease = acquired.get(key);
        if (lease != null) {
          leases.add(lease);
        } else if (held.containsKey(key)) {
          heldInOrder.put(key, held.get(key));
        } else {
          failedInOrder.put(key, failed.get(key));
        }
      }
      return new Acquisitions(leases, heldInOrder, failedInOrder);
    }
  }

  /**
   * One read of the keys' records (none for a key whose own tombstone this manager kept), one
   * judgement each, one batch of writes; holds what was written.
   *
   * @return the keys that lost a revision race, to be read and judged again
   */
  private List<String> acquireRound(List<String> keys, boolean first, BatchResult result) {
    requireOpen();
    Map<String, LeaseSnapshot> stored = new HashMap<>();
    List<String> toRead = new ArrayList<>(keys.size());
    for (String key : keys) {
      Optional<LeaseSnapshot> own = first ? parts.ownTombstones().take(key) : Optional.empty();
      if (own.isPresent()) {
        stored.put(key, own.get());
      } else {
        toRead.add(key);
      }
    }
    if (!toRead.isEmpty()) {
      stored.putAll(parts.repository().loadAll(toRead));
    }
    List<LeaseWrite> writes = new ArrayList<>(keys.size());
    List<Acquisition> hows = new ArrayList<>(keys.size());
    for (String key : keys) {
      Optional<LeaseSnapshot> record = Optional.ofNullable(stored.get(key));
      try {
        hows.add(judge(key, record));
      } catch (LeaseHeld held) {
        result.held.put(key, held);
        continue;
      }
      HolderIdentity holder = new HolderIdentity(self, managerId + "-" + handles.incrementAndGet());
      writes.add(nextRecord(key, record, holder));
    }
    if (writes.isEmpty()) {
      return List.of();
    }
    long start = parts.ticker().nanoTime();
    List<SaveOutcome> outcomes;
    try {
      outcomes = parts.repository().saveAll(writes);
    } catch (StoreLost lost) {
      throw lost; // nothing was written
    } catch (LeaseRepositoryFailure failure) {
      releases.releaseAllIfWritten(writes, failure);
      throw failure;
    }
    long elapsed = parts.ticker().nanoTime() - start;
    List<LeaseSnapshot> written = new ArrayList<>(writes.size());
    List<Acquisition> writtenHow = new ArrayList<>(writes.size());
    List<String> lostRace = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      LeaseWrite write = writes.get(i);
      LeaseException failure = outcomes.get(i).failure();
      if (failure == null) {
        written.add(write.snapshot());
        writtenHow.add(hows.get(i));
      } else if (failure instanceof RevisionConflict) {
        lostRace.add(write.key()); // another writer moved first: read again and judge again
      } else if (failure instanceof LeaseRepositoryFailure repositoryFailure) {
        releases.releaseIfWritten(write, repositoryFailure);
        result.failed.put(write.key(), repositoryFailure);
      }
    }
    if (!parts.timing().leavesRoomForRenewal(elapsed)) {
      // As for one acquisition: leases that would be lost moments after they are handed out.
      releases.releaseAllQuietly(written);
      throw new TooSlow(tooSlow(null, writes.size() + " leases", "their", "they were", elapsed));
    }
    holdAll(written, writtenHow, start, result);
    return lostRace;
  }

  /** Holds the leases written; if one cannot be held (the manager closed), gives the rest back. */
  private void holdAll(
      List<LeaseSnapshot> written, List<Acquisition> hows, long start, BatchResult result) {
    for (int i = 0; i < written.size(); i++) {
      LeaseSnapshot acquired = written.get(i);
      try {
        result.acquired.put(acquired.key(), (ManagedLease) hold(acquired, start, hows.get(i)));
      } catch (RuntimeException | Error cannotHold) {
        releases.releaseAllQuietly(written.subList(i + 1, written.size()));
        throw cannotHold;
      }
    }
  }

  private static LeaseRepositoryFailure lostRaces(String key) {
    return new LeaseRepositoryFailure(
        key,
        "lease '" + key + "': lost " + MAX_RACES + " revision races in a row; giving up",
        null);
  }

  /**
   * Waits on the watch for up to {@code wait}. A holder this machine can see alive may also die
   * without releasing: its process is looked at every poll interval meanwhile (no store read), so
   * that its death is noticed as soon as without a watch.
   *
   * @return whether the watch signalled a release (not the wait's end, nor the holder's death)
   */
  private boolean awaitRelease(KeyWatch watch, LeaseHeld held, Duration wait)
      throws InterruptedException {
    if (held.holderLiveness() != Liveness.ALIVE) {
      return parts.ticker().sleepUntil(wait, watch::awaitRelease);
    }
    Duration poll = pollInterval();
    long deadline = parts.ticker().nanoTime() + wait.toNanos();
    while (true) {
      long left = deadline - parts.ticker().nanoTime();
      if (left <= 0) {
        return false;
      }
      if (parts.ticker().sleepUntil(min(poll, Duration.ofNanos(left)), watch::awaitRelease)) {
        return true;
      }
      if (livenessJudge.judge(held.holder().process()) == Liveness.GONE) {
        return false;
      }
    }
  }

  /** How often a waiter without a watch looks again: half the heartbeat, at most 200 ms. */
  private Duration pollInterval() {
    return min(parts.timing().config().heartbeat().dividedBy(2), MAX_POLL);
  }

  /**
   * How long to wait on a watch before looking again: until the holder's TTL runs out, or the slow
   * re-check that covers a notification the store lost.
   */
  private Duration untilRecheck(Duration remaining, Duration untilTtl) {
    Duration recheck = max(parts.timing().config().heartbeat(), MIN_RECHECK);
    Duration wait = min(recheck, remaining);
    return untilTtl.isNegative() || untilTtl.isZero() ? wait : min(wait, untilTtl);
  }

  /**
   * How long to wait before looking again without a watch: soon enough to notice a release or the
   * TTL running out.
   */
  private Duration pause(Duration remaining, Duration untilTtl) {
    Duration poll = pollInterval();
    long jittered = (long) (poll.toNanos() * ThreadLocalRandom.current().nextDouble(0.8, 1.2));
    Duration pause = min(Duration.ofNanos(Math.max(1, jittered)), remaining);
    return untilTtl.isNegative() || untilTtl.isZero() ? pause : min(pause, untilTtl);
  }

  /** One acquisition: read, judge, write; retried only when another writer won a race. */
  private Lease attempt(String key) {
    try {
      return attemptOnce(key);
    } catch (StoreLost lost) {
      storeLost(lost); // the leases this manager holds were in that store too
      throw lost;
    }
  }

  private Lease attemptOnce(String key) {
    for (int race = 0; race < MAX_RACES; race++) {
      requireOpen();
      // After a release of its own, the first try writes without reading (see OwnTombstones).
      Optional<LeaseSnapshot> stored =
          race == 0 ? parts.ownTombstones().take(key) : Optional.empty();
      if (stored.isEmpty()) {
        stored = parts.repository().load(key);
      }
      HolderIdentity holder = new HolderIdentity(self, managerId + "-" + handles.incrementAndGet());
      Acquisition how = judge(key, stored);
      LeaseWrite write = nextRecord(key, stored, holder);
      long start = parts.ticker().nanoTime();
      try {
        parts.repository().save(write);
      } catch (RevisionConflict lostRace) {
        continue; // another writer moved first: read again and judge again
      } catch (StoreLost lost) {
        throw lost; // nothing was written
      } catch (LeaseRepositoryFailure failure) {
        releases.releaseIfWritten(write, failure);
        throw failure;
      }
      long elapsed = parts.ticker().nanoTime() - start;
      if (!parts.timing().leavesRoomForRenewal(elapsed)) {
        // A write that took most of the TTL would hand out a lease that is lost moments later.
        releases.releaseQuietly(write.snapshot());
        throw new TooSlow(tooSlow(key, elapsed));
      }
      return hold(write.snapshot(), start, how);
    }
    throw lostRaces(key);
  }

  private LeaseRepositoryFailure tooSlow(String key, long elapsedNanos) {
    return tooSlow(key, "lease '" + key + "'", "its", "it was", elapsedNanos);
  }

  private LeaseRepositoryFailure tooSlow(
      @Nullable String key, String what, String whose, String who, long elapsedNanos) {
    return new LeaseRepositoryFailure(
        key,
        String.format(
            Locale.ROOT,
            "acquiring %s took %.3f s of %s %.3f s TTL, too little was left for %s first"
                + " renewal, so %s released again; the repository is too slow for this TTL",
            what,
            elapsedNanos / 1e9,
            whose,
            parts.timing().config().ttl().toNanos() / 1e9,
            whose,
            who),
        null);
  }

  /** How this acquisition may take the lease, or {@link LeaseHeld} if a live holder keeps it. */
  private Acquisition judge(String key, Optional<LeaseSnapshot> stored) {
    if (stored.isEmpty()) {
      return Acquisition.NEW;
    }
    LeaseSnapshot current = stored.get();
    Acquisition how = Acquisition.AFTER_RELEASE;
    if (current.isHeld()) {
      Duration ttl = parts.timing().config().ttl();
      // Parties on one key may be configured differently: wait for the longer promise.
      Duration effectiveTtl = max(ttl, current.ttl());
      Liveness liveness = livenessJudge.judge(current.holder().process());
      Duration unchanged = observations.observe(current, effectiveTtl);
      if (liveness != Liveness.GONE && unchanged.compareTo(effectiveTtl) < 0) {
        parts.events().heldByAnother(current, unchanged, effectiveTtl, liveness);
        throw new LeaseHeld(current, unchanged, effectiveTtl, liveness);
      }
      how = liveness == Liveness.GONE ? Acquisition.DEAD_HOLDER : Acquisition.TTL_TAKEOVER;
    }
    observations.forget(key);
    return how;
  }

  /** The write this acquisition makes. */
  private LeaseWrite nextRecord(String key, Optional<LeaseSnapshot> stored, HolderIdentity holder) {
    Duration ttl = parts.timing().config().ttl();
    Instant now = parts.wallClock().instant();
    if (stored.isEmpty()) {
      return LeaseSnapshot.firstAcquisition(key, holder, ttl, now);
    }
    long ahead = stored.get().generation() - LeaseSnapshot.firstGeneration(now);
    if (ahead > CLOCK_BEHIND_MICROS) {
      clockBehind(key, stored.get().generation(), now, ahead);
    }
    return stored.get().acquisition(holder, ttl, now);
  }

  /**
   * Says, at most once a {@link #CLOCK_WARNING_INTERVAL}, that this wall clock is behind the stored
   * generation: the new one is only one higher, so a store lost before the clock catches up would
   * start below the tokens given so far.
   */
  private void clockBehind(String key, long generation, Instant now, long aheadMicros) {
    long at = parts.ticker().nanoTime();
    long last = lastClockWarning.get();
    boolean warnedRecently = last != NEVER_WARNED && at - last < CLOCK_WARNING_INTERVAL.toNanos();
    if (warnedRecently || !lastClockWarning.compareAndSet(last, at)) {
      return;
    }
    parts
        .warnings()
        .warn(
            () ->
                String.format(
                    Locale.ROOT,
                    "lease '%s': the wall clock (%s) is %.3f s behind stored generation %d (a time in"
                        + " microseconds): generations now rise by one from the stored ones, and a"
                        + " store lost, renamed or restored from an old copy before this clock catches"
                        + " up would give tokens below them; the resource's token check still refuses"
                        + " old holders. Was the clock set back, or was a writer's clock ahead?",
                    key,
                    now,
                    aheadMicros / 1e6,
                    generation),
            null);
  }

  private Lease hold(LeaseSnapshot acquired, long startNanos, Acquisition how) {
    ManagedLease lease =
        new ManagedLease(parts, leaseOwner, handles.incrementAndGet(), acquired, startNanos);
    // Told before anyone can renew, lose or release the lease, so that it is told first.
    parts.events().acquired(acquired.key(), acquired.generation(), how);
    synchronized (this) {
      // close() marks the manager closed under this monitor: either it sees this lease, or we see
      // it closed and release what we just wrote.
      if (!closed) {
        held.add(lease);
        try {
          renewer.added(lease);
        } catch (RuntimeException | Error cannotRenew) {
          // No renewal could be planned (a thread factory that fails): give the lease back.
          held.remove(lease);
          closeQuietly(lease, cannotRenew);
          throw cannotRenew;
        }
        return lease;
      }
    }
    lease.close();
    throw new IllegalStateException("the lease manager was closed during acquire");
  }

  private static void closeQuietly(ManagedLease lease, Throwable cause) {
    try {
      lease.close();
    } catch (RuntimeException | Error alsoFailed) {
      cause.addSuppressed(alsoFailed); // the record then expires after its TTL
    }
  }

  private void forget(ManagedLease lease) {
    held.remove(lease);
  }

  /** The store is gone: every lease held through it is lost, at once. */
  private void storeLost(StoreLost lost) {
    parts.ownTombstones().clear();
    Losses losses = new Losses(); // one log line for all of them
    for (ManagedLease lease : held) {
      lease.lose(LeaseLost.Reason.STORE_LOST, null, lost, losses);
    }
    losses.tell(parts);
  }

  /**
   * Asks the key locks of running fenced work whether they are still held; on the repository lane.
   */
  private void checkKeyLocks() {
    for (FencedRunner runner : fencedWork) {
      runner.checkKeyLocks();
    }
  }

  /** The manager as its leases see it: {@link LeaseOwner}, and nothing else of the manager. */
  private final class OwnerOfLeases implements LeaseOwner {
    @Override
    public void release(ManagedLease lease, boolean wasHeld) {
      releases.release(lease, wasHeld);
    }

    @Override
    public void forget(ManagedLease lease) {
      DefaultLeaseManager.this.forget(lease);
    }

    @Override
    public void fencedWork(FencedRunner runner, boolean running) {
      if (running) {
        fencedWork.add(runner);
      } else {
        fencedWork.remove(runner);
      }
    }

    @Override
    public void storeLost(StoreLost lost) {
      DefaultLeaseManager.this.storeLost(lost);
    }
  }

  @Override
  public LeaseConfig config() {
    return parts.timing().config();
  }

  @Override
  public String name() {
    return parts.name();
  }

  @Override
  public void close() {
    List<ManagedLease> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = new ArrayList<>(held);
    }
    try {
      renewer.close();
      releases.closeAll(open);
    } finally {
      parts.warnings().flushLosses();
      parts.scheduler().close();
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the lease manager is closed");
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  @Override
  public String toString() {
    return "LeaseManager["
        + parts.name()
        + ", "
        + held.size()
        + " held, "
        + parts.timing().config()
        + "]";
  }

  /** An acquisition whose write took too much of the TTL; a waiting acquire tries again. */
  private static final class TooSlow extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient LeaseRepositoryFailure failure;

    TooSlow(LeaseRepositoryFailure failure) {
      super(null, null, false, false);
      this.failure = failure;
    }
  }
}
