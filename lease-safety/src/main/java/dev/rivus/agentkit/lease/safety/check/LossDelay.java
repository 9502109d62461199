/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;
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
    for (JsonNode e : logs.workerEvents("lost")) {
      if (!e.path("reason").asText().equals("RELEASED")) {
        lostAt.putIfAbsent(Logs.lease(e.path("w").asText(), e), e.path("t").asLong());
      }
    }
    List<Long> delays = new ArrayList<>();
    for (JsonNode e : logs.workerEvents("fenced_lost")) {
      Long lost = lostAt.get(Logs.lease(e.path("w").asText(), e));
      if (lost != null) {
        // The loss signal is logged by a callback that may run after the work saw the interrupt.
        delays.add(Math.max(0, e.path("t").asLong() - lost));
      }
    }
    findings.latencies("loss to fenced work interrupted", new Latencies(delays, 0));
  }
}
