/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * P6, no early takeover of a live holder. A takeover (the library says {@code TTL_TAKEOVER} or
 * {@code DEAD_HOLDER}) of a holder the driver had not killed is early if it returned less than the
 * longer of the two workers' TTLs after the start of the holder's last saved write (its acquisition
 * or a renewal): an observer counts the TTL from when it first read the current revision, which is
 * after that write began. A {@code DEAD_HOLDER} takeover of a live holder is always a violation.
 * Takeovers where either worker's monotonic clock had been jumped are reported apart.
 */
final class EarlyTakeover {

  private EarlyTakeover() {}

  static void check(Logs logs, Findings findings) {
    Map<String, List<Long>> writes = savedWrites(logs);
    Map<String, Long> releases = firstEvent(logs, "release_start");
    Map<String, Long> jumps = monotonicJumps(logs);
    Map<String, List<Acquisition>> byKey =
        logs.acquisitions.stream().collect(Collectors.groupingBy(Acquisition::key));
    for (List<Acquisition> grants : byKey.values()) {
      List<Acquisition> ordered = new ArrayList<>(grants);
      ordered.sort(Comparator.comparingLong(Acquisition::token));
      for (int i = 1; i < ordered.size(); i++) {
        Acquisition taker = ordered.get(i);
        Acquisition holder = previousHolder(ordered, i);
        if (isTakeover(taker) && holder != null && !holder.worker().equals(taker.worker())) {
          judge(logs, holder, taker, writes, releases, jumps, findings);
        }
      }
    }
  }

  /**
   * The holder a taker took the key from: the grant of the next lower token that began before the
   * taker's acquisition returned. Token order is time order only while the store keeps its tokens:
   * after a store lost on purpose, a worker whose wall clock was ahead holds tokens above those
   * granted later (found in CI: a grant 12 s after a takeover was judged as its victim).
   */
  private static @Nullable Acquisition previousHolder(List<Acquisition> byToken, int taker) {
    long returned = byToken.get(taker).okNanos();
    for (int i = taker - 1; i >= 0; i--) {
      if (byToken.get(i).startNanos() < returned) {
        return byToken.get(i);
      }
    }
    return null;
  }

  private static boolean isTakeover(Acquisition a) {
    return "TTL_TAKEOVER".equals(a.how()) || "DEAD_HOLDER".equals(a.how());
  }

  private static void judge(
      Logs logs,
      Acquisition holder,
      Acquisition taker,
      Map<String, List<Long>> writes,
      Map<String, Long> releases,
      Map<String, Long> jumps,
      Findings findings) {
    String lease = holder.worker() + "/" + holder.key() + "/" + holder.token();
    if (logs.deathOf(holder.worker()) < taker.okNanos()
        || releases.getOrDefault(lease, Long.MAX_VALUE) < taker.okNanos()) {
      return; // killed, or giving the lease up: not a live holder
    }
    long lastWrite = holder.startNanos();
    for (long start : writes.getOrDefault(lease, List.of())) {
      if (start < taker.okNanos()) {
        lastWrite = Math.max(lastWrite, start);
      }
    }
    long needed =
        Math.max(
                logs.ttlMillis.getOrDefault(holder.worker(), 0L),
                logs.ttlMillis.getOrDefault(taker.worker(), 0L))
            * 1_000_000L;
    long after = taker.okNanos() - lastWrite;
    boolean deadButAlive = "DEAD_HOLDER".equals(taker.how());
    if (after >= needed && !deadButAlive) {
      return;
    }
    String detail =
        taker.worker()
            + " took key "
            + taker.key()
            + " (token "
            + taker.token()
            + ", "
            + taker.how()
            + ") from live "
            + holder.worker()
            + " (token "
            + holder.token()
            + ") "
            + after / 1_000_000
            + " ms after its last write began; its TTL is "
            + needed / 1_000_000
            + " ms";
    boolean jumped =
        jumps.getOrDefault(taker.worker(), Long.MAX_VALUE) < taker.okNanos()
            || jumps.getOrDefault(holder.worker(), Long.MAX_VALUE) < taker.okNanos();
    if (jumped) {
      findings.apart("P6", detail + " (a monotonic clock was jumped)");
    } else {
      findings.violation("P6", detail);
    }
  }

  /** Per lease, the start of every acquisition or renewal write that was saved. */
  private static Map<String, List<Long>> savedWrites(Logs logs) {
    Map<String, Long> pending = new HashMap<>();
    Map<String, List<Long>> saved = new HashMap<>();
    for (WorkerEntry e : logs.workers) {
      String lease = e.lease();
      switch (e.event()) {
        case "renew_start":
          pending.put(lease, e.nanos());
          break;
        case "renew_ok":
          Long start = pending.remove(lease);
          if (start != null) {
            saved.computeIfAbsent(lease, k -> new ArrayList<>()).add(start);
          }
          break;
        default:
          break;
      }
    }
    return saved;
  }

  private static Map<String, Long> firstEvent(Logs logs, String event) {
    Map<String, Long> first = new HashMap<>();
    for (WorkerEntry e : logs.workerEvents(event)) {
      first.putIfAbsent(e.lease(), e.nanos());
    }
    return first;
  }

  /** Per worker, when its monotonic ticker was first jumped. */
  private static Map<String, Long> monotonicJumps(Logs logs) {
    Map<String, Long> jumps = new HashMap<>();
    for (DriverEntry e : logs.faults("mono")) {
      jumps.merge(e.worker(), e.nanos(), Math::min);
    }
    return jumps;
  }
}
