/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseManagerBuilder;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.SchedulerFactory;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Every platform part a lease manager takes, faked for tests: a {@link Ticker}, a wall {@link
 * Clock}, a {@link SchedulerFactory}, the current process and a {@link LivenessJudge}. Time moves
 * only when the test says so, and the test decides which processes run; {@link #managerBuilder}
 * starts a manager on all of them. Timer tasks run on the thread that calls {@link
 * #advance(Duration)}; blocking work given to a scheduler's {@code execute} runs at once on the
 * calling thread, unless the test holds its lane ({@link #holdLane}) to see what happens while,
 * say, interrupts are not yet delivered. {@link #sleep(Duration)} advances the clock instead of
 * waiting, so a blocking {@code acquire(key, maxWait)} runs through fake time.
 *
 * <p>The wall clock moves with the monotonic clock on {@link #advance(Duration)}, and can also be
 * made to jump alone with {@link #jumpWallClock(Duration)}, as NTP or an operator might.
 *
 * <p>Liveness is judged like the Linux platform judges it: a holder that does not share this
 * process's boot id and pid namespace is {@link Liveness#UNKNOWN}; otherwise it is {@link
 * Liveness#ALIVE} if the test marked it running, else {@link Liveness#GONE}. Thread-safe.
 */
public final class FakePlatform implements Ticker, LivenessJudge, SchedulerFactory {

  private static final ProcessIdentity DEFAULT_PROCESS =
      new ProcessIdentity("fake-host", "fake-boot", "pid:[1]", 4242, "ticks:1000");

  private final ProcessIdentity self;
  private final Set<ProcessIdentity> running = new HashSet<>();
  private final PriorityQueue<Timer> timers =
      new PriorityQueue<>(
          Comparator.comparingLong((Timer t) -> t.dueNanos).thenComparingLong(t -> t.seq));
  private final Map<LeaseScheduler.Lane, ArrayDeque<Runnable>> heldLanes =
      new EnumMap<>(LeaseScheduler.Lane.class);
  private long nanos = 1_000_000_000L;
  private Instant wall = Instant.parse("2026-01-01T00:00:00Z");
  private long seq;
  private final Clock wallClock = new FakeClock();

  /** Creates a fake platform whose current process is a default identity. */
  public FakePlatform() {
    this(DEFAULT_PROCESS);
  }

  /**
   * Creates a fake platform for the given current process, which is marked running.
   *
   * @param self the identity {@link #currentProcess()} returns
   */
  public FakePlatform(ProcessIdentity self) {
    this.self = self;
    running.add(self);
  }

  /**
   * Returns another process on the same host (same boot id and pid namespace) with the given pid,
   * marked running.
   *
   * @param pid the other process's pid
   * @return its identity
   */
  public synchronized ProcessIdentity startSibling(long pid) {
    ProcessIdentity sibling =
        new ProcessIdentity(
            self.host(), self.bootId(), self.pidNamespace(), pid, "ticks:" + (2000 + pid));
    running.add(sibling);
    return sibling;
  }

  /**
   * Marks a process as running, so that it is judged {@link Liveness#ALIVE} when it shares this
   * process table.
   *
   * @param process the process
   */
  public synchronized void markRunning(ProcessIdentity process) {
    running.add(process);
  }

  /**
   * Marks a process as gone (killed, exited).
   *
   * @param process the process
   */
  public synchronized void kill(ProcessIdentity process) {
    running.remove(process);
  }

  /**
   * Moves both clocks forward and runs every timer task that falls due, in order, on this thread.
   * Tasks scheduled by those tasks run too if they fall due within the step.
   *
   * @param step how far to move; must not be negative
   */
  public void advance(Duration step) {
    if (step.isNegative()) {
      throw new IllegalArgumentException("step must not be negative, was " + step);
    }
    long target;
    synchronized (this) {
      target = nanos + step.toNanos();
    }
    while (true) {
      Timer next;
      synchronized (this) {
        Timer head = timers.peek();
        if (head == null || head.dueNanos > target) {
          moveTo(target);
          return;
        }
        timers.poll();
        moveTo(head.dueNanos);
        next = head;
      }
      next.task.run();
    }
  }

  /**
   * Moves both clocks to {@code nanos}, never backwards (another thread may have moved further).
   */
  private void moveTo(long target) {
    if (target > nanos) {
      wall = wall.plusNanos(target - nanos);
      nanos = target;
    }
  }

  /**
   * Moves only the wall clock, as a clock adjustment would; the monotonic clock and the timers
   * stay.
   *
   * @param jump how far to move; may be negative
   */
  public synchronized void jumpWallClock(Duration jump) {
    wall = wall.plus(jump);
  }

  /**
   * Holds the tasks given to {@code lane} from now on, in every scheduler of this platform, until
   * {@link #releaseLane} runs them.
   *
   * @param lane the lane to hold
   */
  public synchronized void holdLane(LeaseScheduler.Lane lane) {
    heldLanes.putIfAbsent(lane, new ArrayDeque<>());
  }

  /**
   * Runs the tasks held on {@code lane}, in order, on the calling thread, and lets later tasks run
   * at once again.
   *
   * @param lane the lane to release
   */
  public void releaseLane(LeaseScheduler.Lane lane) {
    ArrayDeque<Runnable> held;
    synchronized (this) {
      held = heldLanes.remove(lane);
    }
    if (held != null) {
      held.forEach(Runnable::run);
    }
  }

  /** Queues the task if its lane is held; returns false if it should run now. */
  private synchronized boolean heldBack(LeaseScheduler.Lane lane, Runnable task) {
    ArrayDeque<Runnable> held = heldLanes.get(lane);
    if (held == null) {
      return false;
    }
    held.add(task);
    return true;
  }

  /**
   * Returns how many timer tasks are waiting.
   *
   * @return the number of scheduled, not yet run, not cancelled tasks
   */
  public synchronized int pendingTimers() {
    return timers.size();
  }

  /**
   * Returns when the next timer task falls due, relative to now.
   *
   * @return the delay, or empty if no task waits
   */
  public synchronized Optional<Duration> nextTimerIn() {
    Timer head = timers.peek();
    return head == null ? Optional.empty() : Optional.of(Duration.ofNanos(head.dueNanos - nanos));
  }

  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  /**
   * Returns the fake wall-clock time.
   *
   * @return the current fake wall-clock time
   */
  public synchronized Instant now() {
    return wall;
  }

  /**
   * Returns the fake wall clock, in UTC: it moves with {@link #advance} and {@link #jumpWallClock}.
   *
   * @return a clock that reads this platform's wall time
   */
  public Clock wallClock() {
    return wallClock;
  }

  /**
   * Starts a manager builder on {@code repository} with every part of this platform set: ticker,
   * wall clock, scheduler, current process and liveness judge. Set the rest (TTL, listener, name)
   * and build.
   *
   * @param repository where lease records live
   * @return a builder whose platform parts are this fake's
   */
  public LeaseManagerBuilder managerBuilder(LeaseRepository repository) {
    return LeaseManager.builder(repository)
        .ticker(this)
        .wallClock(wallClock)
        .scheduler(this)
        .currentProcess(self)
        .livenessJudge(this);
  }

  /**
   * Creates a manager on this platform with a TTL and heartbeat: the short form of {@code
   * managerBuilder(repository).ttl(ttl).heartbeat(heartbeat).build()}.
   *
   * @param repository where lease records live
   * @param ttl how long a record may stay unchanged before another manager may take the lease over
   * @param heartbeat how often each lease is renewed; at most half the TTL
   * @return the manager
   * @throws dev.rivus.agentkit.lease.LeaseConfigInvalid if the TTL or heartbeat is out of bounds
   */
  public LeaseManager newManager(LeaseRepository repository, Duration ttl, Duration heartbeat) {
    return managerBuilder(repository).ttl(ttl).heartbeat(heartbeat).build();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before a fake sleep");
    }
    if (!duration.isNegative()) {
      advance(duration);
    }
  }

  /**
   * Asks the signal without waiting; if it has not come, advances the clock by {@code duration}
   * (running the timers that fall due, which may bring the signal) and asks again. A waiting
   * acquisition thus sees at once, in no fake time, a release that came before it waits.
   */
  @Override
  public boolean sleepUntil(Duration duration, Signal signal) throws InterruptedException {
    if (signal.await(Duration.ZERO)) {
      return true;
    }
    sleep(duration);
    return signal.await(Duration.ZERO);
  }

  @Override
  public LeaseScheduler newScheduler(String name) {
    return new FakeScheduler();
  }

  /**
   * Returns the identity of this platform's current process.
   *
   * @return the current process
   */
  public ProcessIdentity currentProcess() {
    return self;
  }

  @Override
  public synchronized Liveness judge(ProcessIdentity holder) {
    if (!self.sharesProcessTableWith(holder)) {
      return Liveness.UNKNOWN;
    }
    return running.contains(holder) ? Liveness.ALIVE : Liveness.GONE;
  }

  private synchronized Timer addTimer(Object owner, Duration delay, Runnable task) {
    Timer timer = new Timer(owner, nanos + Math.max(0, delay.toNanos()), seq++, task);
    timers.add(timer);
    return timer;
  }

  private synchronized void removeTimer(Timer timer) {
    timers.remove(timer);
  }

  private synchronized void removeTimersOf(Object owner) {
    timers.removeIf(timer -> timer.owner == owner);
  }

  /** A view of the fake wall time. */
  private final class FakeClock extends Clock {
    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the fake wall clock is in UTC only");
    }

    @Override
    public Instant instant() {
      return now();
    }
  }

  private static final class Timer {
    final Object owner;
    final long dueNanos;
    final long seq;
    final Runnable task;

    Timer(Object owner, long dueNanos, long seq, Runnable task) {
      this.owner = owner;
      this.dueNanos = dueNanos;
      this.seq = seq;
      this.task = task;
    }
  }

  private final class FakeScheduler implements LeaseScheduler {
    private volatile boolean closed;

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
      if (closed) {
        return () -> {};
      }
      Timer timer =
          addTimer(
              this,
              delay,
              () -> {
                if (!closed) {
                  task.run();
                }
              });
      return () -> removeTimer(timer);
    }

    @Override
    public void execute(Lane lane, Runnable task) {
      if (!heldBack(lane, task)) {
        task.run();
      }
    }

    @Override
    public void close() {
      closed = true;
      removeTimersOf(this);
    }
  }
}
