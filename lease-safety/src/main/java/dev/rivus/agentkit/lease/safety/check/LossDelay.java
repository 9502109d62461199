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
 * Figure: the delay from a loss to the interrupt of the fenced work it ended, from the workers'
 * logs: the lease's {@code lost} line (the library's loss signal, other than a release) to its
 * {@code fenced_lost} (the fenced section ended by the loss).
 */
final class LossDelay {

  private LossDelay() {}

  static void measure(Logs logs, Findings findings) {
    Map<String, Long> lostAt = new HashMap<>();
    for (WorkerEntry e : logs.workerEvents("lost")) {
      if (!e.reason().equals("RELEASED")) {
        lostAt.putIfAbsent(e.lease(), e.nanos());
      }
    }
    List<Long> delays = new ArrayList<>();
    for (WorkerEntry e : logs.workerEvents("fenced_lost")) {
      Long lost = lostAt.get(e.lease());
      if (lost != null) {
        // The loss signal is logged by a callback that may run after the work saw the interrupt.
        delays.add(Math.max(0, e.nanos() - lost));
      }
    }
    findings.latencies("loss to fenced work interrupted", new Latencies(delays, 0));
  }
}
