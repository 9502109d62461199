package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseException;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Platform;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** The lease manager: acquisition and takeover decisions; each held lease renews itself. */
public final class DefaultLeaseManager implements LeaseManager {

  /**
   * Acquisition attempts that lose a revision race before giving up; each one re-reads the record.
   */
  private static final int MAX_RACES = 64;

  private static final Duration MAX_POLL = Duration.ofMillis(200);

  private final LeaseRepository repository;
  private final LeaseConfig config;
  private final Platform platform;
  private final LeaseScheduler scheduler;
  private final ProcessIdentity self;
  private final String managerId = UUID.randomUUID().toString().substring(0, 13);
  private final AtomicLong handles = new AtomicLong();
  private final Observations observations;
  private final Set<ManagedLease> held = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Creates a manager; see {@link LeaseManager#create(LeaseRepository, LeaseConfig, Platform)}.
   *
   * @param repository where records live
   * @param config TTL and heartbeat
   * @param platform clocks, scheduler and process facts
   */
  public DefaultLeaseManager(LeaseRepository repository, LeaseConfig config, Platform platform) {
    if (repository == null || config == null || platform == null) {
      throw new IllegalArgumentException("repository, config and platform must not be null");
    }
    this.repository = repository;
    this.config = config;
    this.platform = platform;
    this.self = platform.currentProcess();
    this.observations = new Observations(platform::nanoTime);
    this.scheduler = platform.newScheduler("lease-" + managerId);
  }

  @Override
  public Lease acquire(String key) {
    LeaseKeys.requireValid(key);
    for (int race = 0; race < MAX_RACES; race++) {
      requireOpen();
      Optional<LeaseSnapshot> stored = repository.load(key);
      HolderIdentity holder = new HolderIdentity(self, managerId + "-" + handles.incrementAndGet());
      LeaseSnapshot next = nextRecord(key, stored, holder);
      long start = platform.nanoTime();
      try {
        repository.save(key, next, stored.map(LeaseSnapshot::revision).orElse(0L));
      } catch (RevisionConflict lostRace) {
        continue; // another writer moved first: read again and judge again
      } catch (LeaseRepositoryFailure failure) {
        releaseIfWritten(next, failure);
        throw failure;
      }
      return hold(next, start);
    }
    throw new LeaseRepositoryFailure(
        key,
        "lease '" + key + "': lost " + MAX_RACES + " revision races in a row; giving up",
        null);
  }

  @Override
  public Lease acquire(String key, Duration maxWait) throws InterruptedException {
    LeaseKeys.requireValid(key);
    if (maxWait == null || maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must be zero or positive, was " + maxWait);
    }
    long start = platform.nanoTime();
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while waiting for lease '" + key + "'");
      }
      try {
        return acquire(key);
      } catch (LeaseHeld held) {
        Duration remaining = maxWait.minusNanos(platform.nanoTime() - start);
        if (remaining.isNegative() || remaining.isZero()) {
          throw held;
        }
        platform.sleep(pause(held, remaining));
      }
    }
  }

  /**
   * How long to wait before looking again: soon enough to notice a release or the TTL running out.
   */
  private Duration pause(LeaseHeld held, Duration remaining) {
    Duration poll = min(config.heartbeat().dividedBy(2), MAX_POLL);
    long jittered = (long) (poll.toNanos() * ThreadLocalRandom.current().nextDouble(0.8, 1.2));
    Duration pause = min(Duration.ofNanos(Math.max(1, jittered)), remaining);
    Duration untilTtl = config.ttl().minus(held.observedUnchanged());
    return untilTtl.isNegative() || untilTtl.isZero() ? pause : min(pause, untilTtl);
  }

  /** The record this acquisition writes, or {@link LeaseHeld} if a live holder keeps the lease. */
  private LeaseSnapshot nextRecord(
      String key, Optional<LeaseSnapshot> stored, HolderIdentity holder) {
    if (stored.isEmpty()) {
      return LeaseSnapshot.first(key, holder, platform.now());
    }
    LeaseSnapshot current = stored.get();
    if (current.isHeld()) {
      Liveness liveness = platform.liveness(current.holder().process());
      Duration unchanged = observations.observe(current);
      if (liveness != Liveness.GONE && unchanged.compareTo(config.ttl()) < 0) {
        throw new LeaseHeld(current, unchanged, config.ttl(), liveness);
      }
    }
    return current.acquiredBy(holder, platform.now());
  }

  /**
   * A save reported as failed may still have landed (a write whose directory sync failed, a commit
   * whose answer was lost): then a record names a handle nobody holds, and everyone, this manager
   * included, would wait a TTL for it. Release it at once if so; best effort, never throws.
   */
  private void releaseIfWritten(LeaseSnapshot attempted, LeaseRepositoryFailure failure) {
    try {
      Optional<LeaseSnapshot> stored = repository.load(attempted.key());
      if (stored.isPresent() && stored.get().equals(attempted)) {
        repository.save(attempted.key(), attempted.released(platform.now()), attempted.revision());
      }
    } catch (LeaseException stillFailing) {
      failure.addSuppressed(stillFailing);
    }
  }

  private Lease hold(LeaseSnapshot acquired, long startNanos) {
    observations.forget(acquired.key());
    ManagedLease lease = new ManagedLease(this, repository, platform, scheduler, acquired);
    synchronized (this) {
      // close() marks the manager closed under this monitor: either it sees this lease, or we see
      // it closed and release what we just wrote.
      if (!closed) {
        held.add(lease);
        lease.startHeartbeat(startNanos);
        return lease;
      }
    }
    lease.close();
    throw new IllegalStateException("the lease manager was closed during acquire");
  }

  void forget(ManagedLease lease) {
    held.remove(lease);
  }

  @Override
  public LeaseConfig config() {
    return config;
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
    for (ManagedLease lease : open) {
      lease.close();
    }
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

  @Override
  public String toString() {
    return "LeaseManager[" + managerId + ", " + held.size() + " held, " + config + "]";
  }
}
