/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * P7, a {@code lease run} command tree never runs beside a successor's: in the resource's order, no
 * request of a {@code lease run} worker ({@code r<slot>.<run>}) with token {@code g} on a key comes
 * after another worker's ENTER on that key with a higher token (its successor's); and after a
 * {@code kill -9} of the {@code lease} process no process of its tree is left ({@code survivor} in
 * the worker's log, from the driver's search of {@code /proc}). Where the {@code lease} process
 * itself was stopped (SIGSTOP), a tree that talks on is reported apart: a stopped {@code lease}
 * cannot stop its command, as docs/cli.md says, and only the token checked by the resource protects
 * it then.
 */
final class LeaseRunOverlap {

  private LeaseRunOverlap() {}

  /** Whether a worker id names a {@code lease run} worker. */
  static boolean isLeaseRun(String worker) {
    return worker.startsWith("r");
  }

  static void check(Logs logs, Findings findings) {
    Set<String> stopped = new HashSet<>();
    for (JsonNode fault : logs.faults("run_stop")) {
      stopped.add(fault.path("w").asText());
    }
    // Per key, the highest token that entered so far, whose, and at which sequence number.
    Map<String, JsonNode> highestEnter = new HashMap<>();
    for (JsonNode e : logs.resource) {
      String key = e.path("key").asText();
      String worker = e.path("w").asText();
      long token = e.path("token").asLong();
      JsonNode top = highestEnter.get(key);
      if (isLeaseRun(worker)
          && top != null
          && top.path("token").asLong() > token
          && !top.path("w").asText().equals(worker)) {
        findings.report(
            "P7",
            stopped.contains(worker),
            "seq "
                + e.path("seq").asLong()
                + ": "
                + worker
                + " (token "
                + token
                + ") said "
                + e.path("op").asText()
                + " on key "
                + key
                + " after its successor "
                + top.path("w").asText()
                + " (token "
                + top.path("token").asLong()
                + ") entered at seq "
                + top.path("seq").asLong());
      }
      if (e.path("op").asText().equals("ENTER")
          && (top == null || token > top.path("token").asLong())) {
        highestEnter.put(key, e);
      }
    }
    for (JsonNode survivor : logs.workerEvents("survivor")) {
      findings.violation(
          "P7",
          survivor.path("w").asText()
              + ": processes "
              + survivor.path("pids").asText()
              + " of its tree still ran "
              + survivor.path("ms").asLong()
              + " ms after its lease process was killed");
    }
  }
}
