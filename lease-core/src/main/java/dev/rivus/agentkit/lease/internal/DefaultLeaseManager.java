package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Platform;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** The lease manager: acquisition and takeover decisions; its {@link Renewer} keeps leases held. */
public final class DefaultLeaseManager implements LeaseManager {

  /**
   * Acquisition attempts that lose a revision race before giving up; each one re-reads the record.
   */
  private static final int MAX_RACES = 64;

  private static final Duration MAX_POLL = Duration.ofMillis(200);

  private final LeaseRepository repository;
  private final Timing timing;
  private final Platform platform;
  private final LeaseScheduler scheduler;
  private final ProcessIdentity self;
  private final String managerId = UUID.randomUUID().toString().substring(0, 13);
  private final AtomicLong handles = new AtomicLong();
  private final Observations observations;

  /** In key order, so that a renewal round hands its batch to the repository in key order. */
  private final Set<ManagedLease> held = new ConcurrentSkipListSet<>(ManagedLease.KEY_ORDER);

  private final Set<FencedRunner> fencedWork = ConcurrentHashMap.newKeySet();
  private final Warnings warnings;
  private final Releases releases;
  private final Renewer renewer;
  private volatile boolean closed;

  /**
   * Creates a manager; see {@link LeaseManager#create(LeaseRepository, LeaseConfig, Platform)}.
   *
   * @param repository where records live
   * @param config TTL and heartbeat
   * @param platform clocks, scheduler and process facts
   * @throws NullPointerException if an argument is null
   */
  public DefaultLeaseManager(LeaseRepository repository, LeaseConfig config, Platform platform) {
    this.repository = Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(platform, "platform");
    this.timing = new Timing(config);
    this.platform = platform;
    this.self = platform.currentProcess();
    this.observations = new Observations(platform::nanoTime, config.ttl());
    this.scheduler = platform.newScheduler("lease-" + managerId);
    this.warnings = new Warnings(scheduler);
    this.releases = new Releases(this);
    this.renewer = new Renewer(this);
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
    long start = platform.nanoTime();
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while waiting for lease '" + key + "'");
      }
      try {
        return attempt(key);
      } catch (LeaseHeld held) {
        Duration remaining = maxWait.minusNanos(platform.nanoTime() - start);
        if (remaining.isNegative() || remaining.isZero()) {
          throw held;
        }
        platform.sleep(pause(remaining, held.ttl().minus(held.observedUnchanged())));
      } catch (TooSlow slow) {
        Duration remaining = maxWait.minusNanos(platform.nanoTime() - start);
        if (remaining.isNegative() || remaining.isZero()) {
          throw slow.failure;
        }
        platform.sleep(pause(remaining, remaining));
      }
    }
  }

  /**
   * How long to wait before looking again: soon enough to notice a release or the TTL running out.
   */
  private Duration pause(Duration remaining, Duration untilTtl) {
    Duration poll = min(timing.config().heartbeat().dividedBy(2), MAX_POLL);
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
      Optional<LeaseSnapshot> stored = repository.load(key);
      HolderIdentity holder = new HolderIdentity(self, managerId + "-" + handles.incrementAndGet());
      LeaseWrite write = nextRecord(key, stored, holder);
      long start = platform.nanoTime();
      try {
        repository.save(write);
      } catch (RevisionConflict lostRace) {
        continue; // another writer moved first: read again and judge again
      } catch (StoreLost lost) {
        throw lost; // nothing was written
      } catch (LeaseRepositoryFailure failure) {
        releases.releaseIfWritten(write, failure);
        throw failure;
      }
      long elapsed = platform.nanoTime() - start;
      if (!timing.leavesRoomForRenewal(elapsed)) {
        // A write that took most of the TTL would hand out a lease that is lost moments later.
        releases.releaseQuietly(write.snapshot());
        throw new TooSlow(tooSlow(key, elapsed));
      }
      return hold(write.snapshot(), start);
    }
    throw new LeaseRepositoryFailure(
        key,
        "lease '" + key + "': lost " + MAX_RACES + " revision races in a row; giving up",
        null);
  }

  private LeaseRepositoryFailure tooSlow(String key, long elapsedNanos) {
    return new LeaseRepositoryFailure(
        key,
        String.format(
            Locale.ROOT,
            "acquiring lease '%s' took %.3f s of its %.3f s TTL, too little was left for its first"
                + " renewal, so it was released again; the repository is too slow for this TTL",
            key,
            elapsedNanos / 1e9,
            timing.config().ttl().toNanos() / 1e9),
        null);
  }

  /** The write this acquisition makes, or {@link LeaseHeld} if a live holder keeps the lease. */
  private LeaseWrite nextRecord(String key, Optional<LeaseSnapshot> stored, HolderIdentity holder) {
    Duration ttl = timing.config().ttl();
    if (stored.isEmpty()) {
      return LeaseSnapshot.firstAcquisition(key, holder, ttl, platform.now());
    }
    LeaseSnapshot current = stored.get();
    if (current.isHeld()) {
      // Parties on one key may be configured differently: wait for the longer promise.
      Duration effectiveTtl = max(ttl, current.ttl());
      Liveness liveness = platform.liveness(current.holder().process());
      Duration unchanged = observations.observe(current, effectiveTtl);
      if (liveness != Liveness.GONE && unchanged.compareTo(effectiveTtl) < 0) {
        throw new LeaseHeld(current, unchanged, effectiveTtl, liveness);
      }
    }
    observations.forget(key);
    return current.acquisition(holder, ttl, platform.now());
  }

  private Lease hold(LeaseSnapshot acquired, long startNanos) {
    ManagedLease lease = new ManagedLease(this, handles.incrementAndGet(), acquired, startNanos);
    synchronized (this) {
      // close() marks the manager closed under this monitor: either it sees this lease, or we see
      // it closed and release what we just wrote.
      if (!closed) {
        held.add(lease);
        renewer.added(lease);
        return lease;
      }
    }
    lease.close();
    throw new IllegalStateException("the lease manager was closed during acquire");
  }

  void forget(ManagedLease lease) {
    held.remove(lease);
  }

  /** The store is gone: every lease held through it is lost, at once. */
  void storeLost(StoreLost lost) {
    for (ManagedLease lease : held) {
      lease.lose(LeaseLost.Reason.STORE_LOST, null, lost);
    }
  }

  /** Releases a closed lease's record if it is still ours; waits for it, never throws. */
  void release(ManagedLease lease, boolean wasHeld) {
    releases.release(lease, wasHeld);
  }

  Set<ManagedLease> held() {
    return held;
  }

  /** Fenced work of a lease started holding a fence, or ended, so that rounds check its fences. */
  void fencedWork(FencedRunner runner, boolean running) {
    if (running) {
      fencedWork.add(runner);
    } else {
      fencedWork.remove(runner);
    }
  }

  /** Asks the fences of running fenced work whether they are still held; on the repository lane. */
  void checkFences() {
    for (FencedRunner runner : fencedWork) {
      runner.checkFences();
    }
  }

  LeaseRepository repository() {
    return repository;
  }

  Platform platform() {
    return platform;
  }

  LeaseScheduler scheduler() {
    return scheduler;
  }

  Timing timing() {
    return timing;
  }

  Warnings warnings() {
    return warnings;
  }

  @Override
  public LeaseConfig config() {
    return timing.config();
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
    renewer.close();
    releases.closeAll(open);
    scheduler.close();
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
    return "LeaseManager[" + managerId + ", " + held.size() + " held, " + timing.config() + "]";
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
