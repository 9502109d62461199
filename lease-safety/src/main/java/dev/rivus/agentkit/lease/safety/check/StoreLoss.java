/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import dev.rivus.agentkit.lease.safety.driver.PhaseRunner;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Figures of P1's cases apart: for each store the driver deleted, replaced or damaged on purpose,
 * what the library did: the leases lost with {@code STORE_LOST} (or expired) until the store was
 * repaired or the workers restarted, and per key whether the first token granted after it was above
 * every token granted before it (it should be: a new store's first token is the wall clock in
 * microseconds, unless a worker's wall clock was set back).
 */
final class StoreLoss {

  private StoreLoss() {}

  /** How long after a loss's end a STORE_LOST still counts as its consequence. */
  private static final long AFTER_NANOS = 5_000_000_000L;

  /**
   * What the holders inside a fenced section when a store went with its key-lock files did after
   * it: how many sections stayed open, for how long at most, and what became of their writes that
   * came after another worker had entered the key (the resource should refuse them: the new store's
   * tokens are higher).
   */
  private static String oldHolders(Logs logs) {
    List<Long> removals = new ArrayList<>();
    for (DriverEntry e : logs.driver) {
      if (StorageFaults.STORE_LOSSES.contains(e.fault()) && e.keyLock().equals("removed")) {
        removals.add(e.nanos());
      }
    }
    int sections = 0;
    long longestNanos = 0;
    int refused = 0;
    int accepted = 0;
    for (long removal : removals) {
      // Sections entered before the removal and still open, as "key/worker"; those another worker
      // entered the key beside after it.
      Set<String> old = new HashSet<>();
      Set<String> overtaken = new HashSet<>();
      for (ResourceEntry e : logs.resource) {
        String key = e.key();
        String worker = e.worker();
        String section = key + "/" + worker;
        long t = e.nanos();
        switch (e.op()) {
          case "ENTER":
            if (t < removal) {
              old.add(section);
            } else {
              for (String holder : old) {
                if (holder.startsWith(key + "/") && !holder.equals(section)) {
                  overtaken.add(holder);
                }
              }
            }
            break;
          case "WRITE":
            if (t > removal && overtaken.contains(section)) {
              if (e.ok()) {
                accepted++;
              } else {
                refused++;
              }
            }
            break;
          case "EXIT":
          case "DEAD":
            // DEAD names a killed worker, whatever key it was inside.
            for (String ended : List.copyOf(old)) {
              if (ended.endsWith("/" + worker) && (ended.equals(section) || key.isEmpty())) {
                old.remove(ended);
                overtaken.remove(ended);
                if (t > removal) {
                  sections++;
                  longestNanos = Math.max(longestNanos, t - removal);
                }
              }
            }
            break;
          default:
            break;
        }
      }
    }
    return removals.size()
        + " with its key-lock files; fenced sections still open after it: "
        + sections
        + " (the longest until "
        + longestNanos / 1_000_000
        + " ms after it); their writes after another worker entered the key: refused "
        + refused
        + ", accepted "
        + accepted;
  }

  static void measure(Logs logs, Findings findings) {
    List<long[]> losses = logs.storeLosses();
    if (losses.isEmpty()) {
      return;
    }
    if (logs.driver.stream().anyMatch(e -> e.keyLock().equals("removed"))) {
      findings.figure("store lost on purpose, old holders", oldHolders(logs));
    }
    Map<String, Integer> lost = new TreeMap<>();
    for (WorkerEntry e : logs.workerEvents("lost")) {
      long t = e.nanos();
      String reason = e.reason();
      for (long[] loss : losses) {
        if (t >= loss[0] && t <= loss[1] + AFTER_NANOS && !reason.equals("RELEASED")) {
          lost.merge(reason, 1, Integer::sum);
          break;
        }
      }
    }
    int above = 0;
    List<String> below = new ArrayList<>();
    for (long[] loss : losses) {
      for (String key : PhaseRunner.KEYS) {
        long highestBefore = Long.MIN_VALUE;
        Acquisition firstAfter = null;
        for (Acquisition a : logs.acquisitions) {
          if (!a.key().equals(key)) {
            continue;
          }
          if (a.okNanos() < loss[0]) {
            highestBefore = Math.max(highestBefore, a.token());
          } else if (a.startNanos() > loss[1]
              && (firstAfter == null || a.okNanos() < firstAfter.okNanos())) {
            firstAfter = a;
          }
        }
        if (firstAfter == null || highestBefore == Long.MIN_VALUE) {
          continue;
        }
        if (firstAfter.token() > highestBefore) {
          above++;
        } else {
          below.add(
              key
                  + ": "
                  + firstAfter.worker()
                  + " got "
                  + firstAfter.token()
                  + " <= "
                  + highestBefore);
        }
      }
    }
    findings.figure(
        "store lost on purpose",
        losses.size()
            + " times; leases lost "
            + lost
            + "; next token above every granted one: "
            + above
            + " keys, below: "
            + below.size()
            + (below.isEmpty() ? "" : " " + below.subList(0, Math.min(3, below.size()))));
  }
}
