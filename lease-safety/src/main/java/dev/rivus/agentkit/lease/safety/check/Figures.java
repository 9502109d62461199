/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import java.util.Map;
import java.util.TreeMap;

/** Figures of a phase: operations by kind and outcome, faults by kind, acquisitions by way. */
final class Figures {

  private Figures() {}

  static void count(Logs logs, Findings findings) {
    Map<String, Integer> operations = new TreeMap<>();
    Map<String, Integer> ways = new TreeMap<>();
    for (JsonNode e : logs.workers) {
      String event = e.path("ev").asText();
      switch (event) {
        case "acquire_failed":
        case "fenced_failed":
          operations.merge(event + "(" + e.path("error").asText() + ")", 1, Integer::sum);
          break;
        case "fenced_lost":
        case "lost":
          operations.merge(event + "(" + e.path("reason").asText() + ")", 1, Integer::sum);
          break;
        case "write":
          operations.merge(
              e.path("accepted").asBoolean() ? "write_accepted" : "write_rejected",
              1,
              Integer::sum);
          break;
        case "acquired":
          ways.merge(e.path("how").asText(), 1, Integer::sum);
          break;
        case "acquire_ok":
        case "acquire_held":
        case "survivor":
        case "tree_gone":
        case "fenced_end":
        case "released":
        case "renew_ok":
        case "renew_failed":
          operations.merge(event, 1, Integer::sum);
          break;
        default:
          break;
      }
    }
    Map<String, Integer> faults = new TreeMap<>();
    for (JsonNode e : logs.driver) {
      if (e.has("fault") && !e.path("fault").asText().matches("cont|spawn|heal")) {
        faults.merge(e.path("fault").asText(), 1, Integer::sum);
      }
    }
    findings.tally("operations", operations);
    findings.tally("faults", faults);
    findings.figure("operations", operations);
    findings.figure("acquisitions by way", ways);
    findings.figure("faults", faults);
  }

  /** The faults the harness injected (not crashes, respawns or resumes). */
  static int injectedFaults(Logs logs) {
    int count = 0;
    for (JsonNode e : logs.driver) {
      String kind = e.path("fault").asText();
      if (kind.equals("kill")
          || kind.equals("stop")
          || kind.equals("wall")
          || kind.equals("mono")
          || kind.equals("db_kill")
          || kind.equals("db_cut")
          || kind.equals("db_restart")
          || StorageFaults.KINDS.contains(kind)
          || LeaseRunSlot.KINDS.contains(kind)
          || kind.equals("stderr_block")) {
        count++;
      }
    }
    return count;
  }
}
