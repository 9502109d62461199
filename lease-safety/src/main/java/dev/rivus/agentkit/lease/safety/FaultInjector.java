/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
final class FaultInjector {

  /** The kinds of fault, by their name in the driver's log. */
  enum Kind {
    KILL,
    STOP,
    WALL,
    MONO,
    /** One of the store's faults ({@link StorageFaults}), where the phase has them. */
    STORAGE,
    /** {@code kill -9} of a {@code lease run} process ({@link LeaseRunSlot}). */
    RUN_KILL,
    /** {@code SIGSTOP} of a {@code lease run} process. */
    RUN_STOP,
    /** A {@code lease run} process's stderr left unread. */
    RUN_STDERR,
    /** A noisy library worker's stderr left unread ({@link NoisyWorker}). */
    STDERR,
    /** A holder's database sessions ended by the server (database phases only). */
    DB_KILL,
    /** A holder's network to the database cut, then healed (database phases only). */
    DB_CUT,
    /** The database server restarted (a private server's phase only). */
    DB_RESTART,
    /** A {@code lease run} holder's database sessions ended ({@code db_kill} in the log). */
    RUN_DB_KILL,
    /** A {@code lease run} holder's network to the database cut ({@code db_cut} in the log). */
    RUN_DB_CUT;

    boolean needsDatabase() {
      return this == DB_KILL
          || this == DB_CUT
          || this == DB_RESTART
          || this == RUN_DB_KILL
          || this == RUN_DB_CUT;
    }
  }

  private final Random random;
  private final List<WorkerSlot> slots;
  private final ResourceClient resource;
  private final JsonLines log;
  private final Duration stopFor;
  private final boolean stopFirst;
  private final Deque<Kind> plan = new ArrayDeque<>();
  private final @Nullable DatabaseFaults database;
  private @Nullable StorageFaults storage;
  private @Nullable LeaseRunSlot runs;
  private boolean startedRounds;
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

  /** An injector that also ends database sessions and cuts the network to the database. */
  FaultInjector(
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
   * @return this
   */
  FaultInjector with(@Nullable StorageFaults storage, @Nullable LeaseRunSlot runs) {
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
   * @return this
   */
  FaultInjector with(@Nullable NoisyWorker noisy) {
    this.noisy = noisy;
    return this;
  }

  private boolean available(Kind kind) {
    switch (kind) {
      case STDERR:
        return noisy != null;
      case STORAGE:
        return storage != null;
      case RUN_KILL:
      case RUN_STOP:
      case RUN_STDERR:
      case RUN_DB_KILL:
      case RUN_DB_CUT:
        return runs != null;
      default:
        return true;
    }
  }

  /** Injects faults until {@code deadlineNanos} ({@code System.nanoTime()}). */
  void run(long deadlineNanos) throws InterruptedException {
    while (System.nanoTime() < deadlineNanos) {
      reapCrashes();
      Thread.sleep(200 + random.nextInt(800)); // pacing between faults, not synchronisation
      if (System.nanoTime() >= deadlineNanos) {
        break;
      }
      inject(next());
    }
    reapCrashes();
  }

  private Kind next() {
    if (plan.isEmpty()) {
      List<Kind> round = new ArrayList<>(List.of(Kind.values()));
      round.removeIf(
          kind ->
              !available(kind)
                  || (kind.needsDatabase()
                      && (database == null
                          || (kind == Kind.DB_RESTART && !database.canRestart()))));
      if (storage != null) {
        round.add(Kind.STORAGE); // twice a round: the store has more kinds of fault than a worker
      }
      if (database != null && database.canRestart()) {
        // Twice a round (one opens it, below): the rounds are long, and the phase is there for
        // its restarts.
        round.add(Kind.DB_RESTART);
      }
      Collections.shuffle(round, random);
      if (!startedRounds) {
        // The first round opens with one fault of each family the phase is there for (what
        // Phase.thresholds requires), so that even a short phase has them all.
        List<Kind> opening = new ArrayList<>();
        if (storage != null) {
          opening.add(Kind.STORAGE);
        }
        if (runs != null) {
          opening.add(
              List.of(Kind.RUN_KILL, Kind.RUN_STOP, Kind.RUN_STDERR).get(random.nextInt(3)));
        }
        if (noisy != null) {
          opening.add(Kind.STDERR);
        }
        opening.addAll(List.of(Kind.KILL, Kind.STOP));
        if (database != null) {
          opening.addAll(List.of(Kind.DB_KILL, Kind.DB_CUT));
          if (runs != null) {
            // A lease run hit through the database too.
            opening.add(random.nextBoolean() ? Kind.RUN_DB_KILL : Kind.RUN_DB_CUT);
          }
        }
        opening.forEach(round::remove);
        round.addAll(0, opening);
      }
      startedRounds = true;
      if (stopFirst) {
        round.remove(Kind.STOP);
        round.add(0, Kind.STOP);
      }
      if (database != null && database.canRestart()) {
        // A phase on a private server is there for its restarts: one opens every round.
        round.remove(Kind.DB_RESTART);
        round.add(0, Kind.DB_RESTART);
      }
      plan.addAll(round);
    }
    return plan.removeFirst();
  }

  private void inject(Kind kind) throws InterruptedException {
    switch (kind) {
      case KILL:
        kill(holder());
        break;
      case STOP:
        stop(holder());
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
        if (database != null) {
          database.endSessions(java.util.Objects.requireNonNull(runs));
        }
        break;
      case RUN_DB_CUT:
        if (database != null) {
          database.cut(java.util.Objects.requireNonNull(runs));
        }
        break;
      case DB_RESTART:
        if (database != null) {
          // Down for less than a TTL or for longer than the longest, at random.
          database.restart(Duration.ofMillis(300 + random.nextInt(4200)));
        }
        break;
      case STORAGE:
        java.util.Objects.requireNonNull(storage).inject();
        break;
      case RUN_KILL:
        java.util.Objects.requireNonNull(runs).kill();
        break;
      case RUN_STOP:
        java.util.Objects.requireNonNull(runs).stop(stopFor);
        break;
      case RUN_STDERR:
        java.util.Objects.requireNonNull(runs)
            .blockStderr(Duration.ofMillis(1000 + random.nextInt(2000)));
        break;
      case STDERR:
        java.util.Objects.requireNonNull(noisy)
            .block(Duration.ofMillis(1000 + random.nextInt(3000)));
        break;
      case MONO:
      default:
        WorkerSlot mono = slots.get(random.nextInt(slots.size()));
        long ttl = mono.ttl().toMillis();
        jump(mono, "mono", "MONO", Duration.ofMillis(ttl + random.nextInt((int) ttl)));
        break;
    }
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

  private void stop(WorkerSlot victim) throws InterruptedException {
    victim.child().suspend();
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
