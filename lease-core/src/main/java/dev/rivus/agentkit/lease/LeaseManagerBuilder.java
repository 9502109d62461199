/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import dev.rivus.agentkit.lease.internal.DefaultLeaseManager;
import dev.rivus.agentkit.lease.internal.ManagerSettings;
import dev.rivus.agentkit.lease.platform.SchedulerFactory;
import dev.rivus.agentkit.lease.platform.SystemProcesses;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link LeaseManager}: {@code LeaseManager.builder(repository)}, then the options that
 * differ from the defaults, then {@link #build()}. The builder is the one way to set a manager's
 * TTL and heartbeat; the manager reports them as a {@link LeaseConfig} ({@link
 * LeaseManager#config()}). Every option may be set once; setting one twice, or two that exclude
 * each other ({@link #scheduler} and {@link #threadFactory}), is an {@link IllegalStateException},
 * so that no option is silently overridden. A null argument is a {@link NullPointerException}
 * naming the parameter.
 *
 * <pre>{@code
 * LeaseManager leases = LeaseManager.builder(repository)
 *     .ttl(Duration.ofSeconds(30))            // heartbeat: a quarter of the TTL
 *     .name("billing")                        // in thread names and messages
 *     .listener(new LeaseListener() {
 *       @Override public void lost(LeaseEvent.Lost event) { alerts.raise(event.key()); }
 *     })
 *     .build();
 * }</pre>
 *
 * <p>Defaults: a 60 s TTL renewed every 15 s ({@link LeaseConfig#defaults()}), a {@linkplain #grace
 * grace} of 10 s, {@link Ticker#system()}, {@link Clock#systemUTC()}, {@link
 * SchedulerFactory#system()}, the current process and the liveness judge of {@link
 * SystemProcesses#detect()}, no listener, and a random name. Not thread-safe: a builder is meant
 * for one thread; the manager it builds is thread-safe.
 */
public final class LeaseManagerBuilder {

  /** Letters, digits, {@code . _ -}: a name reads well in a thread name and a log line. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** The grace of {@code lease run --grace}'s default. */
  private static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);

  private final LeaseRepository repository;
  private @Nullable Duration ttl;
  private @Nullable Duration heartbeat;
  private @Nullable Duration grace;
  private @Nullable Ticker ticker;
  private @Nullable Clock wallClock;
  private @Nullable SchedulerFactory scheduler;
  private @Nullable ThreadFactory threadFactory;
  private @Nullable ProcessIdentity currentProcess;
  private @Nullable LivenessJudge livenessJudge;
  private @Nullable LeaseListener listener;
  private @Nullable String name;

  LeaseManagerBuilder(LeaseRepository repository) {
    this.repository = Objects.requireNonNull(repository, "repository");
  }

  /**
   * Sets the TTL: how long a record may stay unchanged before another manager may take the lease
   * over. Unless {@link #heartbeat} is set too, the heartbeat is a quarter of it. Checked by {@link
   * #build()} as {@link LeaseConfig} checks it.
   *
   * @param ttl the TTL
   * @return this builder
   * @throws IllegalStateException if the TTL was set
   */
  public LeaseManagerBuilder ttl(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    requireUnset("ttl", this.ttl);
    this.ttl = ttl;
    return this;
  }

  /**
   * Sets how often each lease is renewed; at most half the TTL. Checked by {@link #build()} as
   * {@link LeaseConfig} checks it.
   *
   * @param heartbeat the interval between renewals
   * @return this builder
   * @throws IllegalStateException if the heartbeat was set
   */
  public LeaseManagerBuilder heartbeat(Duration heartbeat) {
    Objects.requireNonNull(heartbeat, "heartbeat");
    requireUnset("heartbeat", this.heartbeat);
    this.heartbeat = heartbeat;
    return this;
  }

  /**
   * Sets the grace of fenced work: after its lease is lost, how long fenced work may take to end
   * (it is interrupted at once, unless it runs {@linkplain Lease#runFencedUninterruptibly
   * uninterruptibly}) before the storage may end its key lock by itself and let a successor's
   * fenced work start; {@code lease run --grace} means the same for its command. The manager takes
   * each key lock with the lease's TTL plus the grace as its silence limit ({@link
   * LeaseRepository#lockKey(String, java.time.Duration)}) and tells the storage every heartbeat
   * round that it is still there; a holder cut off from a database thus blocks the key for at most
   * about that long after it fell silent. Default 10 s.
   *
   * @param grace zero or positive
   * @return this builder
   * @throws IllegalArgumentException if the grace is negative
   * @throws IllegalStateException if the grace was set
   */
  public LeaseManagerBuilder grace(Duration grace) {
    Objects.requireNonNull(grace, "grace");
    requireUnset("grace", this.grace);
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must be zero or positive, was " + grace);
    }
    this.grace = grace;
    return this;
  }

  /**
   * Sets the monotonic clock every TTL, heartbeat and wait is measured on.
   *
   * @param ticker the monotonic clock
   * @return this builder
   * @throws IllegalStateException if the ticker was set
   */
  public LeaseManagerBuilder ticker(Ticker ticker) {
    Objects.requireNonNull(ticker, "ticker");
    requireUnset("ticker", this.ticker);
    this.ticker = ticker;
    return this;
  }

  /**
   * Sets the wall clock, whose time is written to records for people to read and is never used for
   * expiry or takeover.
   *
   * @param wallClock the wall clock
   * @return this builder
   * @throws IllegalStateException if the wall clock was set
   */
  public LeaseManagerBuilder wallClock(Clock wallClock) {
    Objects.requireNonNull(wallClock, "wallClock");
    requireUnset("wallClock", this.wallClock);
    this.wallClock = wallClock;
    return this;
  }

  /**
   * Sets the factory of the manager's scheduler (its timer and its lanes' threads), for example a
   * fake one in tests.
   *
   * @param scheduler makes the manager's scheduler
   * @return this builder
   * @throws IllegalStateException if the scheduler or the thread factory was set
   */
  public LeaseManagerBuilder scheduler(SchedulerFactory scheduler) {
    Objects.requireNonNull(scheduler, "scheduler");
    requireUnset("scheduler", this.scheduler);
    requireUnset("threadFactory", threadFactory);
    this.scheduler = scheduler;
    return this;
  }

  /**
   * Sets the factory of the threads the manager runs its work on (its timer, repository calls,
   * interrupts, notifications and listener); see {@link SchedulerFactory#threads(ThreadFactory)}.
   *
   * @param threadFactory makes the manager's threads
   * @return this builder
   * @throws IllegalStateException if the thread factory or the scheduler was set
   */
  public LeaseManagerBuilder threadFactory(ThreadFactory threadFactory) {
    Objects.requireNonNull(threadFactory, "threadFactory");
    requireUnset("threadFactory", this.threadFactory);
    requireUnset("scheduler", scheduler);
    this.threadFactory = threadFactory;
    return this;
  }

  /**
   * Sets the identity this manager writes to the records of the leases it holds. Others judge by it
   * whether this holder still runs, so it must name this process truly.
   *
   * @param currentProcess this process
   * @return this builder
   * @throws IllegalStateException if the current process was set
   */
  public LeaseManagerBuilder currentProcess(ProcessIdentity currentProcess) {
    Objects.requireNonNull(currentProcess, "currentProcess");
    requireUnset("currentProcess", this.currentProcess);
    this.currentProcess = currentProcess;
    return this;
  }

  /**
   * Sets how this manager judges whether the holder of a lease it wants still runs.
   *
   * @param livenessJudge the judge
   * @return this builder
   * @throws IllegalStateException if the judge was set
   */
  public LeaseManagerBuilder livenessJudge(LivenessJudge livenessJudge) {
    Objects.requireNonNull(livenessJudge, "livenessJudge");
    requireUnset("livenessJudge", this.livenessJudge);
    this.livenessJudge = livenessJudge;
    return this;
  }

  /**
   * Sets the listener that hears what happens to this manager's leases.
   *
   * @param listener the listener
   * @return this builder
   * @throws IllegalStateException if the listener was set
   */
  public LeaseManagerBuilder listener(LeaseListener listener) {
    Objects.requireNonNull(listener, "listener");
    requireUnset("listener", this.listener);
    this.listener = listener;
    return this;
  }

  /**
   * Names the manager, in its threads' names, its messages and its listener's events.
   *
   * @param name one to 64 letters, digits, dots, underscores or hyphens
   * @return this builder
   * @throws IllegalArgumentException if the name is empty, too long or has other characters
   * @throws IllegalStateException if the name was set
   */
  public LeaseManagerBuilder name(String name) {
    Objects.requireNonNull(name, "name");
    requireUnset("name", this.name);
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "name must be 1 to 64 letters, digits, '.', '_' or '-', was '" + name + "'");
    }
    this.name = name;
    return this;
  }

  /**
   * Builds the manager. It starts no thread until it holds a lease or has work to do.
   *
   * @return the manager; close it to release its leases and stop its threads
   * @throws LeaseConfigInvalid if the TTL or heartbeat is out of bounds
   */
  public LeaseManager build() {
    ProcessIdentity process = currentProcess;
    LivenessJudge judge = livenessJudge;
    if (process == null || judge == null) {
      SystemProcesses system = SystemProcesses.detect();
      process = process != null ? process : system.currentProcess();
      judge = judge != null ? judge : system;
    }
    return new DefaultLeaseManager(
        new ManagerSettings(
            repository,
            resolvedConfig(),
            grace != null ? grace : DEFAULT_GRACE,
            ticker != null ? ticker : Ticker.system(),
            wallClock != null ? wallClock : Clock.systemUTC(),
            resolvedScheduler(),
            process,
            judge,
            listener != null ? listener : LeaseListener.NONE,
            name));
  }

  private LeaseConfig resolvedConfig() {
    if (ttl == null && heartbeat == null) {
      return LeaseConfig.defaults();
    }
    Duration t = ttl != null ? ttl : LeaseConfig.defaults().ttl();
    return new LeaseConfig(t, heartbeat != null ? heartbeat : t.dividedBy(4));
  }

  private SchedulerFactory resolvedScheduler() {
    if (scheduler != null) {
      return scheduler;
    }
    return threadFactory != null
        ? SchedulerFactory.threads(threadFactory)
        : SchedulerFactory.system();
  }

  private static void requireUnset(String option, @Nullable Object value) {
    if (value != null) {
      throw new IllegalStateException(option + " was already set to " + value);
    }
  }
}
