/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

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
    for (WorkerEntry e : logs.workers) {
      String event = e.event();
      switch (event) {
        case "acquire_failed":
        case "fenced_failed":
          operations.merge(event + "(" + e.error() + ")", 1, Integer::sum);
          break;
        case "fenced_lost":
        case "lost":
          operations.merge(event + "(" + e.reason() + ")", 1, Integer::sum);
          break;
        case "write":
          operations.merge(e.accepted() ? "write_accepted" : "write_rejected", 1, Integer::sum);
          break;
        case "acquired":
          ways.merge(e.how(), 1, Integer::sum);
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
    for (DriverEntry e : logs.driver) {
      if (e.isFault() && !e.fault().matches("cont|spawn|heal")) {
        faults.merge(e.fault(), 1, Integer::sum);
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
    for (DriverEntry e : logs.driver) {
      String kind = e.fault();
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
