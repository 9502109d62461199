/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.resource.ResourceClient;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.safety.workers.NoisyWorker;
import dev.rivus.agentkit.lease.safety.workers.WorkerSlot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Injects faults into a phase's workers, one at a time, chosen from a seeded random source so that
 * a seed names a run: {@code kill -9} of a holder (respawned), {@code SIGSTOP} of a holder for 1.5
 * × the longest TTL then {@code SIGCONT}, a wall-clock jump of hours either way, and a monotonic
 * jump forward by one to two TTLs; in a database phase also a holder's sessions ended by the server
 * and its network to the server cut for a while ({@link DatabaseFaults}). A holder is preferably a
 * worker inside a fenced section now (the resource says who). Every fault goes to the driver's log;
 * a worker that died unasked is logged as a crash and respawned.
 *
 * <p>Not thread-safe: one fault loop per phase.
 */
public final class FaultInjector {

  private final Random random;
  private final List<WorkerSlot> slots;
  private final ResourceClient resource;
  private final JsonLines log;
  private final Duration stopFor;
  private final boolean stopFirst;
  private final @Nullable DatabaseFaults database;
  private @Nullable StorageFaults storage;
  private @Nullable LeaseRunSlot runs;
  private @Nullable NoisyWorker noisy;

  FaultInjector(
      Random random,
      List<WorkerSlot> slots,
      ResourceClient resource,
      JsonLines log,
      Duration stopFor,
      boolean stopFirst) {
    this(random, slots, resource, log, stopFor, stopFirst, null);
  }

  /**
   * An injector that also ends database sessions and cuts the network to the database.
   *
   * @param random the phase's seeded source of every choice
   * @param slots the library workers
   * @param resource a connection to the resource, which says who is inside a fenced section
   * @param log the driver's log
   * @param stopFor how long a {@code SIGSTOP} lasts
   * @param stopFirst whether every round opens with a {@code SIGSTOP} inside a fenced section (a
   *     phase without fencing)
   * @param database the database phase's faults, or {@code null}
   */
  public FaultInjector(
      Random random,
      List<WorkerSlot> slots,
      ResourceClient resource,
      JsonLines log,
      Duration stopFor,
      boolean stopFirst,
      @Nullable DatabaseFaults database) {
    this.database = database;
    this.random = random;
    this.slots = slots;
    this.resource = resource;
    this.log = log;
    this.stopFor = stopFor;
    this.stopFirst = stopFirst;
  }

  /**
   * Adds the storage faults and the {@code lease run} worker of a phase that has them.
   *
   * @param storage the storage faults, or {@code null}
   * @param runs the {@code lease run} worker, or {@code null}
   * @return this
   */
  public FaultInjector with(@Nullable StorageFaults storage, @Nullable LeaseRunSlot runs) {
    this.storage = storage;
    this.runs = runs;
    if (storage != null) {
      storage.attach(random, slots, runs);
    }
    return this;
  }

  /**
   * Adds the worker whose stderr the driver may stop reading.
   *
   * @param noisy the noisy worker, or {@code null}
   * @return this
   */
  public FaultInjector with(@Nullable NoisyWorker noisy) {
    this.noisy = noisy;
    return this;
  }

  /** The kinds this phase can inject: those of the parts it has. */
  private Set<FaultKind> kinds() {
    Set<FaultKind> kinds =
        EnumSet.of(FaultKind.KILL, FaultKind.STOP, FaultKind.WALL, FaultKind.MONO);
    if (storage != null) {
      kinds.add(FaultKind.STORAGE);
    }
    if (noisy != null) {
      kinds.add(FaultKind.STDERR);
    }
    if (runs != null) {
      kinds.addAll(EnumSet.of(FaultKind.RUN_KILL, FaultKind.RUN_STOP, FaultKind.RUN_STDERR));
    }
    if (database != null) {
      kinds.addAll(EnumSet.of(FaultKind.DB_KILL, FaultKind.DB_CUT));
      if (runs != null) {
        kinds.addAll(EnumSet.of(FaultKind.RUN_DB_KILL, FaultKind.RUN_DB_CUT));
      }
      if (database.canRestart()) {
        kinds.add(FaultKind.DB_RESTART);
      }
    }
    return kinds;
  }

  /**
   * Injects faults until {@code deadlineNanos}.
   *
   * @param deadlineNanos when to stop, as {@code System.nanoTime()}
   * @throws InterruptedException if interrupted
   */
  public void run(long deadlineNanos) throws InterruptedException {
    FaultPlan plan = new FaultPlan(random, kinds(), stopFirst);
    while (System.nanoTime() < deadlineNanos) {
      reapCrashes();
      Thread.sleep(200 + random.nextInt(800)); // pacing between faults, not synchronisation
      if (System.nanoTime() >= deadlineNanos) {
        break;
      }
      FaultKind kind = plan.next();
      if (!inject(kind)) {
        // No lease run was under way to strike (one had just ended, or the server was down): try
        // again after the next fault, so that a phase still gets the fault families it needs.
        Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
        line.put("note", "fault_deferred");
        line.put("kind", kind.name().toLowerCase(Locale.ROOT));
        log.write(line);
        plan.defer(kind);
      }
    }
    reapCrashes();
  }

  /**
   * Injects {@code kind}; returns false if it found no victim (a {@code lease run} not running).
   */
  private boolean inject(FaultKind kind) throws InterruptedException {
    switch (kind) {
      case KILL:
        kill(holder());
        break;
      case STOP:
        stop(suspendedHolder());
        break;
      case WALL:
        WorkerSlot wall = slots.get(random.nextInt(slots.size()));
        long hours = (1 + random.nextInt(6)) * (random.nextBoolean() ? 1L : -1L);
        jump(wall, "wall", "WALL", Duration.ofHours(hours));
        break;
      case DB_KILL:
        if (database != null) {
          database.endSessions(holder());
        }
        break;
      case DB_CUT:
        if (database != null) {
          database.cut(holder());
        }
        break;
      case RUN_DB_KILL:
        return database == null || database.endSessions(Objects.requireNonNull(runs));
      case RUN_DB_CUT:
        return database == null || database.cut(Objects.requireNonNull(runs));
      case DB_RESTART:
        if (database != null) {
          // Down for less than a TTL or for longer than the longest, at random.
          database.restart(Duration.ofMillis(300 + random.nextInt(4200)));
        }
        break;
      case STORAGE:
        Objects.requireNonNull(storage).inject();
        break;
      case RUN_KILL:
        return Objects.requireNonNull(runs).kill();
      case RUN_STOP:
        return Objects.requireNonNull(runs).stop(stopFor);
      case RUN_STDERR:
        return Objects.requireNonNull(runs)
            .blockStderr(Duration.ofMillis(1000 + random.nextInt(2000)));
      case STDERR:
        Objects.requireNonNull(noisy).block(Duration.ofMillis(1000 + random.nextInt(3000)));
        break;
      case MONO:
      default:
        WorkerSlot mono = slots.get(random.nextInt(slots.size()));
        long ttl = mono.ttl().toMillis();
        jump(mono, "mono", "MONO", Duration.ofMillis(ttl + random.nextInt((int) ttl)));
        break;
    }
    return true;
  }

  /** A worker inside a fenced section, if one is within two seconds; else any worker. */
  private WorkerSlot holder() throws InterruptedException {
    for (int look = 0; look < 100; look++) {
      List<String> inside = List.of(resource.call("OPEN").substring(2).trim().split(" "));
      List<WorkerSlot> holders = new ArrayList<>();
      for (WorkerSlot slot : slots) {
        if (inside.contains(slot.id()) && slot.child().isAlive()) {
          holders.add(slot);
        }
      }
      if (!holders.isEmpty()) {
        return holders.get(random.nextInt(holders.size()));
      }
      Thread.sleep(20); // polling the resource for a holder to hit
    }
    return slots.get(random.nextInt(slots.size()));
  }

  private void kill(WorkerSlot victim) throws InterruptedException {
    // Stopped first, so that the resource closes its sections (DEAD) before any successor can
    // enter: a stopped process keeps its key lock until it dies.
    victim.child().suspend();
    resource.call("DEAD " + victim.id());
    Map<String, Object> line = victim.fault("kill");
    line.put("pid", victim.child().pid());
    log.write(line);
    victim.child().kill();
    victim.respawn();
  }

  /**
   * A holder stopped by SIGSTOP. With {@code stopFirst} (a phase without fencing: the negative
   * control, a mutant's run and its control) the stop must land inside a fenced section, the fault
   * that shows a missing key lock: a victim found just out of its section once stopped (sections
   * last 10-210 ms) is resumed at once and another chosen, up to 20 times.
   */
  private WorkerSlot suspendedHolder() throws InterruptedException {
    for (int tries = 1; ; tries++) {
      WorkerSlot victim = holder();
      victim.child().suspend();
      if (!stopFirst || tries == 20 || isInside(victim)) {
        return victim;
      }
      victim.child().resume();
    }
  }

  private boolean isInside(WorkerSlot slot) {
    return List.of(resource.call("OPEN").substring(2).trim().split(" ")).contains(slot.id());
  }

  /** Holds a stopped {@code victim} stopped for the phase's time, then lets it continue. */
  private void stop(WorkerSlot victim) throws InterruptedException {
    Map<String, Object> line = victim.fault("stop");
    line.put("pid", victim.child().pid());
    line.put("ms", stopFor.toMillis());
    log.write(line);
    Thread.sleep(stopFor.toMillis()); // the fault itself: how long the holder stays stopped
    victim.child().resume();
    log.write(victim.fault("cont"));
  }

  private void jump(WorkerSlot slot, String kind, String command, Duration by) {
    Map<String, Object> line = slot.fault(kind);
    line.put("ms", by.toMillis());
    log.write(line);
    try {
      slot.child().send(command + " " + by.toMillis());
    } catch (java.io.UncheckedIOException died) {
      // it died meanwhile: the next look for crashes logs it
    }
  }

  /** Logs and respawns every worker that exited without being asked to. */
  void reapCrashes() {
    for (WorkerSlot slot : slots) {
      if (!slot.child().isAlive()) {
        Map<String, Object> line = slot.fault("crash");
        line.put("detail", "exited unasked: " + slot.child().diagnostics());
        log.write(line);
        slot.respawn();
      }
    }
  }
}
