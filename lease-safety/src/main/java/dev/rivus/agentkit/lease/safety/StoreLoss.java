/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  static void measure(Logs logs, Findings findings) {
    List<long[]> losses = logs.storeLosses();
    if (losses.isEmpty()) {
      return;
    }
    Map<String, Integer> lost = new TreeMap<>();
    for (JsonNode e : logs.workerEvents("lost")) {
      long t = e.path("t").asLong();
      String reason = e.path("reason").asText();
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
