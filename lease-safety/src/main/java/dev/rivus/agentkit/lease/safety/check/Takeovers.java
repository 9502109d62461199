/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Figures: how long after a {@code kill -9} or a {@code SIGSTOP} of a holder another worker took
 * its lease over (p50, p95, max), and how many such leases were not taken over in the phase.
 */
final class Takeovers {

  private Takeovers() {}

  static void measure(Logs logs, Findings findings) {
    Map<String, Long> ends = leaseEnds(logs);
    for (String[] kind :
        new String[][] {
          {"kill", "kill -9"},
          {"stop", "SIGSTOP"},
          {"db_kill", "its sessions ended"},
          {"db_cut", "a network cut"}
        }) {
      if (kind[0].startsWith("db_") && logs.faults(kind[0]).isEmpty()) {
        continue; // not a database phase
      }
      List<Long> latencies = new ArrayList<>();
      int notTaken = 0;
      for (DriverEntry fault : logs.faults(kind[0])) {
        long at = fault.nanos();
        for (Acquisition held : heldAt(logs, ends, fault.worker(), at)) {
          long next = nextTakeover(logs, held, at);
          if (next < 0) {
            notTaken++;
          } else {
            latencies.add(next - at);
          }
        }
      }
      findings.latencies("takeover after " + kind[1], new Latencies(latencies, notTaken));
    }
  }

  private static long nextTakeover(Logs logs, Acquisition held, long at) {
    long first = -1;
    for (Acquisition a : logs.acquisitions) {
      boolean takeover = "TTL_TAKEOVER".equals(a.how()) || "DEAD_HOLDER".equals(a.how());
      if (takeover && a.key().equals(held.key()) && a.token() > held.token() && a.okNanos() > at) {
        first = first < 0 ? a.okNanos() : Math.min(first, a.okNanos());
      }
    }
    return first;
  }

  /**
   * The leases a worker held, in its own view, at a moment: acquired by then and neither being
   * released nor lost yet ({@code ends} from {@link #leaseEnds}).
   */
  static List<Acquisition> heldAt(Logs logs, Map<String, Long> ends, String worker, long at) {
    List<Acquisition> held = new ArrayList<>();
    for (Acquisition a : logs.acquisitions) {
      String lease = a.worker() + "/" + a.key() + "/" + a.token();
      if (a.worker().equals(worker)
          && a.okNanos() <= at
          && ends.getOrDefault(lease, Long.MAX_VALUE) >= at) {
        held.add(a);
      }
    }
    return held;
  }

  /** When each lease stopped being held in its worker's view: release began, or it was lost. */
  static Map<String, Long> leaseEnds(Logs logs) {
    Map<String, Long> ends = new HashMap<>();
    for (WorkerEntry e : logs.workers) {
      String event = e.event();
      if (event.equals("release_start") || event.equals("lost")) {
        ends.merge(e.lease(), e.nanos(), Math::min);
      }
    }
    return ends;
  }
}
