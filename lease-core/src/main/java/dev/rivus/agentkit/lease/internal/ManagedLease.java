package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.FencedWork;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWork;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Platform;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/** A held lease: its record as last written, its heartbeat, and its one-way loss signal. */
final class ManagedLease implements Lease {

  private static final System.Logger LOG = System.getLogger(ManagedLease.class.getName());
  private static final int RELEASE_ATTEMPTS = 3;

  private final DefaultLeaseManager manager;
  private final LeaseRepository repository;
  private final Platform platform;
  private final LossSignal signal;
  private final Heartbeat heartbeat;
  private final FencedRunner fenced;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile LeaseSnapshot current;

  ManagedLease(
      DefaultLeaseManager manager,
      LeaseRepository repository,
      Platform platform,
      LeaseScheduler scheduler,
      LeaseSnapshot acquired) {
    this.manager = manager;
    this.repository = repository;
    this.platform = platform;
    this.current = acquired;
    this.signal = new LossSignal(scheduler);
    this.heartbeat =
        new Heartbeat(
            this, platform, scheduler, manager.config().ttl(), manager.config().heartbeat());
    this.fenced = new FencedRunner(this, repository, scheduler);
  }

  void startHeartbeat(long acquiredAtNanos) {
    heartbeat.start(acquiredAtNanos);
  }

  @Override
  public String key() {
    return current.key();
  }

  @Override
  public long generation() {
    return current.generation();
  }

  @Override
  public HolderIdentity holder() {
    return current.holder();
  }

  @Override
  public boolean isHeld() {
    return !signal.isLost();
  }

  @Override
  public CompletionStage<LeaseLost> lost() {
    return signal.stage();
  }

  @Override
  public <T, X extends Exception> T runFenced(FencedWork<T, X> work)
      throws X, InterruptedException {
    return fenced.run(work, true);
  }

  @Override
  public <T, X extends Exception> T runFencedUninterruptibly(FencedWork<T, X> work)
      throws X, InterruptedException {
    return fenced.run(work, false);
  }

  @Override
  public <T, X extends Exception> T runUntilLost(LeaseWork<T, X> work)
      throws X, InterruptedException {
    return fenced.runUnfenced(work);
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    heartbeat.stop();
    boolean wasHeld = lose(LeaseLost.Reason.RELEASED, null, null);
    LeaseLost loss = signal.lost();
    if (wasHeld || (loss != null && loss.reason() == LeaseLost.Reason.EXPIRED)) {
      release();
    }
    manager.forget(this);
  }

  /**
   * Writes the tombstone if the record is still ours; never throws. Runs with the thread's
   * interrupt flag cleared (and set again afterwards): try-with-resources often closes on a thread
   * whose flag was just restored, or from inside the lease's own interrupted work, and the release
   * must still happen.
   */
  private void release() {
    boolean interrupted = Thread.interrupted();
    try {
      releaseIfStillOurs();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void releaseIfStillOurs() {
    // A renewal stuck in a hanging repository call holds the write lock; don't wait for it forever.
    if (!tryWriteLock()) {
      LOG.log(
          Level.WARNING,
          "lease '"
              + key()
              + "' generation "
              + generation()
              + " was not released: a renewal is still waiting for the repository; it will expire");
      return;
    }
    try {
      LeaseSnapshot mine = current;
      for (int attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
        try {
          repository.save(key(), mine.released(platform.now()), mine.revision());
          return;
        } catch (RevisionConflict conflict) {
          Optional<LeaseSnapshot> stored = loadQuietly();
          if (stored.isEmpty() || !isOwnRecord(stored.get())) {
            return; // taken over meanwhile: nothing of ours to release
          }
          mine = stored.get();
        } catch (RuntimeException failure) {
          LOG.log(
              Level.WARNING,
              "could not release lease '"
                  + key()
                  + "' generation "
                  + generation()
                  + "; it will expire after the TTL",
              failure);
          return;
        }
      }
    } finally {
      writeLock.unlock();
    }
  }

  private boolean tryWriteLock() {
    try {
      // A renewal normally holds it for milliseconds; one that hangs past a heartbeat is stuck.
      return writeLock.tryLock(manager.config().heartbeat().toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Optional<LeaseSnapshot> loadQuietly() {
    try {
      return repository.load(key());
    } catch (RuntimeException failure) {
      return Optional.empty();
    }
  }

  /** Declares the loss once; returns false if the lease was already lost. */
  boolean lose(LeaseLost.Reason reason, @Nullable LeaseSnapshot seen, @Nullable Throwable cause) {
    boolean first = signal.declare(new LeaseLost(key(), generation(), reason, seen, cause));
    if (first) {
      heartbeat.stop();
      if (reason != LeaseLost.Reason.RELEASED) {
        LOG.log(Level.WARNING, signal.lost().getMessage());
        manager.forget(this);
      }
    }
    return first;
  }

  /** Whether {@code stored} is this handle's own record (same generation, same handle, held). */
  boolean isOwnRecord(LeaseSnapshot stored) {
    return stored.isHeld()
        && stored.generation() == current.generation()
        && stored.holder().equals(current.holder());
  }

  LeaseLost lossOrReleased() {
    LeaseLost loss = signal.lost();
    return loss != null
        ? loss
        : new LeaseLost(key(), generation(), LeaseLost.Reason.RELEASED, null, null);
  }

  LossSignal signal() {
    return signal;
  }

  ReentrantLock writeLock() {
    return writeLock;
  }

  LeaseRepository repository() {
    return repository;
  }

  LeaseSnapshot current() {
    return current;
  }

  void wrote(LeaseSnapshot written) {
    current = written;
  }

  @Override
  public String toString() {
    return "Lease[" + key() + ", generation " + generation() + (isHeld() ? ", held]" : ", lost]");
  }
}
