/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.shedlock;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;

/**
 * A ShedLock lock provider on a {@link LeaseManager}: each ShedLock lock is a lease on the key of
 * the same name, renewed by the manager while the job runs, with the lease's generation as a
 * fencing token.
 *
 * <pre>{@code
 * @Bean LeaseLockProvider lockProvider(LeaseManager leases) {
 *   return new LeaseLockProvider(leases);
 * }
 * }</pre>
 *
 * <p>What it promises:
 *
 * <ul>
 *   <li>{@link #lock} takes the lease on the key named as the lock, failing fast: it returns empty
 *       if another live holder has the lease ({@link LeaseHeld}), or if this provider already holds
 *       it (a job still running, or one that unlocked within its {@code lockAtLeastFor}).
 *   <li>While the lock is held, the manager renews the lease every heartbeat. If the process dies,
 *       others may take the key once the TTL has passed (at once on the same machine), not at
 *       {@code lockAtMostFor} as with ShedLock's storage-based providers.
 *   <li>{@code lockAtMostFor}: the lease is released at {@code lockAtMostFor} after the call to
 *       {@code lock}, unless unlocked before. The job is not interrupted; from then on {@link
 *       #currentToken()} is empty on its thread, and the next holder gets a higher generation.
 *   <li>{@code lockAtLeastFor}: an {@link SimpleLock#unlock() unlock} before {@code lockAtLeastFor}
 *       has passed since the call to {@code lock} keeps the lease held, and renewed, until then,
 *       and releases it then. An unlock after it releases the lease at once, before it returns.
 *   <li>{@link SimpleLock#extend} sets new limits, counted from the call to extend, on the same
 *       lease (same generation); it returns empty if the lease is no longer held (released at
 *       {@code lockAtMostFor}, or lost). Unlocking or extending a lock that was unlocked or
 *       extended already throws {@link IllegalStateException}, as ShedLock's own locks do;
 *       unlocking one whose lease was released at {@code lockAtMostFor} does nothing.
 *   <li>A store failure while locking is thrown as ShedLock's {@link LockException}, with the
 *       {@link LeaseRepositoryFailure} as its cause.
 * </ul>
 *
 * <p>The job reads its fencing token with {@link #currentToken()} (or the lease, with {@link
 * #currentLease()}) on the thread that took the lock, which is the thread ShedLock runs the job on,
 * and passes it to the writes the lock protects, which refuse a token lower than the highest they
 * have seen. The token is bound to the provider, not to a global: inject the provider where the job
 * needs it.
 *
 * <p>Lock names are lease keys as they are: a name that {@link LeaseKeys} refuses (longer than
 * {@value LeaseKeys#MAX_LENGTH} UTF-16 code units) is refused with an {@link
 * IllegalArgumentException}, never shortened, so that two names never share a key.
 *
 * <p>The provider owns one daemon thread, which ends leases at {@code lockAtMostFor} and at the end
 * of {@code lockAtLeastFor}. That release is a store write and may block on a slow store; the
 * thread runs nothing else, so a slow release delays only this provider's other releases, while the
 * manager's own timer and renewals are unaffected. It does not close the manager. Thread-safe.
 */
public final class LeaseLockProvider implements ExtensibleLockProvider, AutoCloseable {

  private final LeaseManager leases;
  private final ScheduledThreadPoolExecutor timer;
  private final ConcurrentMap<String, Hold> holds = new ConcurrentHashMap<>();

  /*
   * The holds taken on each thread, latest first, for currentToken(). Per provider rather than
   * static (no global state); the provider is long-lived, so one ThreadLocal per provider is cheap.
   */
  @SuppressWarnings("ThreadLocalUsage")
  private final ThreadLocal<ArrayDeque<Hold>> bound = ThreadLocal.withInitial(ArrayDeque::new);

  private volatile boolean closed;

  /**
   * Creates a provider on {@code leases}, which it uses but does not close.
   *
   * @param leases the manager whose leases the locks are
   * @throws NullPointerException if {@code leases} is null
   */
  public LeaseLockProvider(LeaseManager leases) {
    this.leases = Objects.requireNonNull(leases, "leases");
    String threadName = "lease-shedlock-" + leases.name();
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, threadName);
              thread.setDaemon(true);
              return thread;
            });
    timer.setRemoveOnCancelPolicy(true);
  }

  /**
   * Takes the lock: the lease on the key named {@code lockConfiguration.getName()}, failing fast.
   *
   * @param lockConfiguration the lock's name and limits
   * @return the lock, or empty if another live holder or this provider holds the lease
   * @throws LockException if the store failed; its cause is the {@link LeaseRepositoryFailure}
   * @throws IllegalArgumentException if the name is longer than a lease key may be
   * @throws IllegalStateException if this provider or its manager is closed
   * @throws NullPointerException if {@code lockConfiguration} is null
   */
  @Override
  public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
    Objects.requireNonNull(lockConfiguration, "lockConfiguration");
    String key = keyOf(lockConfiguration.getName());
    requireOpen();
    Hold fresh = new Hold(this, key);
    for (Hold prior = holds.putIfAbsent(key, fresh);
        prior != null;
        prior = holds.putIfAbsent(key, fresh)) {
      if (prior.isLive()) {
        return Optional.empty();
      }
      holds.remove(key, prior); // its lease was lost: the key is free to take again
    }
    long start = System.nanoTime();
    Lease lease;
    try {
      lease = leases.acquire(key);
    } catch (LeaseHeld held) {
      holds.remove(key, fresh);
      return Optional.empty();
    } catch (LeaseRepositoryFailure failure) {
      holds.remove(key, fresh);
      throw new LockException(
          "could not lock '" + key + "' on the lease store: " + failure.getMessage(), failure);
    } catch (RuntimeException failure) {
      holds.remove(key, fresh);
      throw failure;
    }
    SimpleLock lock = fresh.start(lease, lockConfiguration, start);
    if (closed) {
      fresh.end(); // close() may have run before this hold was started
      throw new IllegalStateException("lock provider on manager " + leases.name() + " is closed");
    }
    bind(fresh);
    return Optional.of(lock);
  }

  /**
   * Returns the fencing token of the lock the calling thread holds: the lease's generation, higher
   * than every generation handed out for the key before. Call it from the job; when jobs with locks
   * are nested on one thread, the innermost lock's token.
   *
   * <pre>{@code
   * @Scheduled(cron = "0 0 * * * *")
   * @SchedulerLock(name = "report", lockAtMostFor = "PT30M")
   * void report() {
   *   long token = lockProvider.currentToken().orElseThrow();
   *   reports.save(build(), token); // the store refuses a token lower than the highest it saw
   * }
   * }</pre>
   *
   * @return the generation, or empty if the calling thread holds no lock of this provider, or its
   *     lease has been released (at {@code lockAtMostFor}) or lost
   */
  public OptionalLong currentToken() {
    Optional<Lease> lease = currentLease();
    return lease.isPresent() ? OptionalLong.of(lease.get().generation()) : OptionalLong.empty();
  }

  /**
   * Returns the lease of the lock the calling thread holds, for fenced work ({@link
   * Lease#runFenced}) or to ask whether it is still held. Do not close it: unlocking the lock does
   * (closing it ends the lock early, as {@code lockAtMostFor} would).
   *
   * @return the lease, or empty as for {@link #currentToken()}
   */
  public Optional<Lease> currentLease() {
    Iterator<Hold> latestFirst = bound.get().iterator();
    while (latestFirst.hasNext()) {
      Hold hold = latestFirst.next();
      Optional<Lease> lease = hold.runningLease();
      if (lease.isPresent()) {
        return lease;
      }
      if (!hold.isLive()) {
        latestFirst.remove();
      }
    }
    return Optional.empty();
  }

  /**
   * Releases every lease this provider still holds, including those kept for {@code
   * lockAtLeastFor}, and stops its thread. Does not close the manager. Does nothing if already
   * closed.
   */
  @Override
  public void close() {
    closed = true;
    List<Hold> all = new ArrayList<>(holds.values());
    for (Hold hold : all) {
      hold.end();
    }
    timer.shutdownNow();
  }

  ScheduledThreadPoolExecutor timer() {
    return timer;
  }

  /** Called by a hold once its lease is released: the key may be locked again. */
  void forget(Hold hold) {
    holds.remove(hold.key(), hold);
  }

  /** Called by a hold on unlock: the calling thread's job is over. */
  void unbind(Hold hold) {
    bound.get().remove(hold);
  }

  private void bind(Hold hold) {
    ArrayDeque<Hold> holdsOfThread = bound.get();
    holdsOfThread.removeIf(other -> !other.isLive()); // locks unlocked on other threads
    holdsOfThread.addFirst(hold);
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("lock provider on manager " + leases.name() + " is closed");
    }
  }

  /** The lease key of a lock name: the name itself, if it is a valid key. */
  static String keyOf(String name) {
    Objects.requireNonNull(name, "name");
    if (name.length() > LeaseKeys.MAX_LENGTH) {
      throw new IllegalArgumentException(
          "ShedLock lock name is "
              + name.length()
              + " UTF-16 code units long, but a lease key holds at most "
              + LeaseKeys.MAX_LENGTH
              + "; use a shorter name (names are never shortened here, so that two never share a"
              + " key; the name starts with '"
              + name.substring(0, Character.isHighSurrogate(name.charAt(31)) ? 31 : 32)
              + "...')");
    }
    return LeaseKeys.requireValid(name);
  }
}
