/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.HashMap;
import java.util.Map;

/**
 * P2, fencing holds: in the resource's own order, no write was accepted with a token below one
 * accepted before on the same key.
 */
final class Fencing {

  private Fencing() {}

  static void check(Logs logs, Findings findings) {
    Map<String, Long> highestAccepted = new HashMap<>();
    long rejected = 0;
    for (ResourceEntry write : logs.applied("WRITE")) {
      String key = write.key();
      long token = write.token();
      if (!write.ok()) {
        rejected++;
        continue;
      }
      long highest = highestAccepted.getOrDefault(key, Long.MIN_VALUE);
      if (token < highest) {
        findings.violation(
            "P2",
            "seq "
                + write.seq()
                + ": key "
                + key
                + " accepted a write of "
                + write.worker()
                + " with token "
                + token
                + " after token "
                + highest);
      }
      highestAccepted.put(key, Math.max(highest, token));
    }
    findings.figure("stale writes rejected", rejected);
    findings.tally("stale writes", Map.of("rejected", (int) rejected));
  }
}
