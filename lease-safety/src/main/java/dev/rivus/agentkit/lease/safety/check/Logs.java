/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.driver.PhaseRunner;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The logs of one phase, read and indexed for the checker: the resource's (in its order), every
 * worker's, and the driver's faults, each line parsed once into a typed entry ({@link
 * ResourceEntry}, {@link WorkerEntry}, {@link DriverEntry}). Immutable once built.
 */
final class Logs {

  final List<ResourceEntry> resource;
  final List<WorkerEntry> workers;
  final List<DriverEntry> driver;
  final List<Acquisition> acquisitions = new ArrayList<>();
  final Map<String, Long> ttlMillis = new HashMap<>();

  /** The library holders that said their key lock was lost, as {@code worker/token}. */
  private final Set<String> fencedWorkKeyLockLost = new HashSet<>();

  /** The {@code lease run} workers that said their key lock was lost (one lease per run). */
  private final Set<String> leaseRunKeyLockLost = new HashSet<>();

  Logs(List<ResourceEntry> resource, List<WorkerEntry> workers, List<DriverEntry> driver) {
    this.resource = resource;
    this.workers = workers;
    this.driver = driver;
    index();
  }

  /** Reads {@code resource.jsonl}, {@code driver.jsonl} and every {@code worker-*.jsonl}. */
  static Logs load(Path phaseDirectory) {
    List<JsonNode> workers = new ArrayList<>();
    try (Stream<Path> files = Files.list(phaseDirectory)) {
      files
          .filter(f -> f.getFileName().toString().matches("worker-.*\\.jsonl"))
          .sorted()
          .forEach(f -> workers.addAll(JsonLines.read(f)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + phaseDirectory, e);
    }
    return parse(
        readIfThere(phaseDirectory.resolve("resource.jsonl")),
        workers,
        readIfThere(phaseDirectory.resolve("driver.jsonl")));
  }

  /** Parses the lines of the resource's log, of the workers' and of the driver's. */
  static Logs parse(List<JsonNode> resource, List<JsonNode> workers, List<JsonNode> driver) {
    return new Logs(
        resource.stream().map(ResourceEntry::of).toList(),
        workers.stream().map(WorkerEntry::of).toList(),
        driver.stream().map(DriverEntry::of).toList());
  }

  private static List<JsonNode> readIfThere(Path file) {
    return Files.exists(file) ? JsonLines.read(file) : List.of();
  }

  /** Worker events named {@code event}, in log order. */
  List<WorkerEntry> workerEvents(String event) {
    return workers.stream().filter(e -> e.event().equals(event)).toList();
  }

  /** Driver events of fault kind {@code kind}, in log order. */
  List<DriverEntry> faults(String kind) {
    return driver.stream().filter(e -> e.fault().equals(kind)).toList();
  }

  /** Resource events of operation {@code op} that changed something (late ones left out). */
  List<ResourceEntry> applied(String op) {
    return resource.stream().filter(e -> e.op().equals(op) && !e.late()).toList();
  }

  /** The moment the driver killed {@code worker}, or {@code Long.MAX_VALUE}. */
  long deathOf(String worker) {
    long death = Long.MAX_VALUE;
    for (DriverEntry fault : driver) {
      String kind = fault.fault();
      if ((kind.equals("kill") || kind.equals("crash") || kind.equals("run_kill"))
          && fault.worker().equals(worker)) {
        death = Math.min(death, fault.nanos());
      }
    }
    return death;
  }

  /**
   * The stretches of time in which the driver deliberately lost a store or a record (a storage
   * fault of {@link StorageFaults#STORE_LOSSES}, until its repair or restart), as {start, end}.
   */
  List<long[]> storeLosses() {
    List<long[]> losses = new ArrayList<>();
    for (DriverEntry e : driver) {
      if (StorageFaults.STORE_LOSSES.contains(e.fault())) {
        losses.add(new long[] {e.nanos(), e.nanos()});
      } else if (!losses.isEmpty() && (e.note().equals("repair") || e.note().equals("restart"))) {
        long[] last = losses.get(losses.size() - 1);
        last[1] = Math.max(last[1], e.nanos());
      }
    }
    return losses;
  }

  /** Whether a deliberate store loss lies between {@code before} and {@code after}. */
  boolean storeLostBetween(long before, long after) {
    for (long[] loss : storeLosses()) {
      if (before < loss[1] && after > loss[0]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the key lock that {@code holder} held on {@code key} with {@code token} may have ended
   * before {@code successor}, with {@code successorToken}, entered the key's fenced section at
   * {@code enteredNanos}: then two holders' fenced work could overlap with nothing but the token at
   * the resource (P2) to protect it, and P3 (a library holder) and P7 (a {@code lease run}) report
   * the overlap apart, not as a violation. It may have if:
   *
   * <ul>
   *   <li>the holder said so ({@code KEY_LOCK_LOST}: a library worker's fenced work for that lease
   *       ended with it; a {@code lease run}, one lease per run, said it on its stderr);
   *   <li>the driver ended its database sessions while it held ({@link #sessionsEndedWhileHeld});
   *   <li>the driver silenced it towards the database long enough for the server to end its key
   *       lock's session ({@link #networkCutWhileHeld});
   *   <li>or the store went with its key-lock files between the two acquisitions ({@link
   *       #keyLockRemovedBetween}).
   * </ul>
   */
  boolean keyLockMayHaveEnded(
      String holder,
      String key,
      long token,
      String successor,
      long successorToken,
      long enteredNanos) {
    boolean said =
        LeaseRunOverlap.isLeaseRun(holder)
            ? leaseRunKeyLockLost.contains(holder)
            : fencedWorkKeyLockLost.contains(holder + "/" + token);
    return said
        || sessionsEndedWhileHeld(holder, key, token, enteredNanos)
        || networkCutWhileHeld(holder, key, token, enteredNanos)
        || keyLockRemovedBetween(holder, token, successor, successorToken, key);
  }

  /**
   * Whether {@code holder}'s lease on {@code key} with {@code token} was granted before a
   * deliberate store loss that took the key-lock files with it ({@code "keyLock":"removed"} on the
   * fault's line), and {@code successor}'s with {@code successorToken} after it: the two key locks
   * were then two different files, which exclude each other no more than two stores do.
   */
  private boolean keyLockRemovedBetween(
      String holder, long token, String successor, long successorToken, String key) {
    long before = grantedAt(holder, key, token);
    long after = grantedAt(successor, key, successorToken);
    for (DriverEntry e : driver) {
      if (StorageFaults.STORE_LOSSES.contains(e.fault())
          && e.keyLock().equals("removed")
          && before < e.nanos()
          && after > e.nanos()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the database sessions of {@code worker}, holding {@code key} with {@code token}, were
   * ended by the driver after its acquisition and before {@code untilNanos}: its own {@code
   * db_kill}, or a {@code db_restart}, which ends every session. Its key lock, a lock of one of
   * those sessions, was lost with them, whether or not the worker lived to say so.
   */
  private boolean sessionsEndedWhileHeld(String worker, String key, long token, long untilNanos) {
    long granted = grantedAt(worker, key, token);
    for (DriverEntry e : driver) {
      String fault = e.fault();
      // A db_kill that failed (an error) or found no session of the worker ended nothing.
      boolean ended =
          fault.equals("db_restart")
              || (fault.equals("db_kill")
                  && e.worker().equals(worker)
                  && !e.hasError()
                  && e.sessions() > 0);
      long t = e.nanos();
      if (ended && t >= granted && t <= untilNanos) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the driver silenced {@code worker} towards the database after its acquisition of {@code
   * key} with {@code token} in a way that ends its key lock's session by {@code untilNanos}: its
   * network cut and healed by then (a client that gave up on a session, a statement or a validity
   * check that timed out, has it closed once the network heals), or cut, or the worker stopped
   * (SIGSTOP), for as long as the server takes to end a silent key lock's session: the TTL, the
   * grace and 1 s, less a heartbeat (the holder's last word may come a heartbeat before). The key
   * lock goes with the session, whatever the worker said of its lease meanwhile, and only the token
   * at the resource protects it from then on. On files and SQLite a stopped process keeps its
   * kernel lock, and there is no network to cut: never.
   */
  private boolean networkCutWhileHeld(String worker, String key, long token, long untilNanos) {
    if (!isDatabasePhase()) {
      return false;
    }
    long granted = grantedAt(worker, key, token);
    long ttl =
        Duration.ofMillis(ttlMillis.getOrDefault(worker, PhaseRunner.LONG_TTL.toMillis()))
            .toNanos();
    long silenceBound =
        ttl + PhaseRunner.GRACE.toNanos() + KeyBlocking.SERVER_MARGIN.toNanos() - ttl / 4;
    long cutAt = -1;
    for (DriverEntry e : driver) {
      String fault = e.fault();
      long t = e.nanos();
      if (!e.worker().equals(worker) || t > untilNanos || t < granted) {
        continue;
      }
      boolean silencing =
          fault.equals("db_cut") || fault.equals("stop") || fault.equals("run_stop");
      if (silencing && untilNanos - t >= silenceBound) {
        return true;
      }
      if (fault.equals("db_cut")) {
        cutAt = t;
      } else if (fault.equals("heal") && cutAt >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Whether the phase ran on a database: the driver ended sessions or cut networks. */
  boolean isDatabasePhase() {
    return !faults("db_cut").isEmpty() || !faults("db_kill").isEmpty();
  }

  /** When {@code worker}'s acquisition of {@code key} with {@code token} returned, if it did. */
  private long grantedAt(String worker, String key, long token) {
    for (Acquisition a : acquisitions) {
      if (a.worker().equals(worker) && a.key().equals(key) && a.token() == token) {
        return a.okNanos();
      }
    }
    return Long.MAX_VALUE; // never granted: no case apart
  }

  private void index() {
    Map<String, Long> pendingStart = new HashMap<>();
    // The library tells its listener of an acquisition on its own thread: that line may come after
    // the worker's acquire_ok, so every way is read first.
    Map<String, String> how = new HashMap<>();
    for (WorkerEntry e : workerEvents("acquired")) {
      how.put(e.lease(), e.how());
    }
    for (WorkerEntry e : workers) {
      String worker = e.worker();
      switch (e.event()) {
        case "start":
          ttlMillis.put(worker, e.ttlMs());
          break;
        case "acquire_start":
          pendingStart.put(worker, e.nanos());
          break;
        case "acquire_ok":
          long ok = e.nanos();
          acquisitions.add(
              new Acquisition(
                  worker,
                  e.key(),
                  e.token(),
                  pendingStart.getOrDefault(worker, ok),
                  ok,
                  how.get(e.lease())));
          break;
        case "fenced_lost":
          if (e.reason().equals("KEY_LOCK_LOST")) {
            fencedWorkKeyLockLost.add(worker + "/" + e.token());
          }
          break;
        case "lost":
          if (LeaseRunOverlap.isLeaseRun(worker) && e.reason().equals("KEY_LOCK_LOST")) {
            leaseRunKeyLockLost.add(worker);
          }
          break;
        default:
          break;
      }
    }
  }
}
