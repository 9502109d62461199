/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.Map;
import java.util.TreeMap;

/**
 * P5, typed failures and no hangs: a raw exception out of the library, an interrupt left behind, a
 * call past its deadline, a worker JVM that died unasked or did not stop when told.
 */
final class Failures {

  private Failures() {}

  static void check(Logs logs, Findings findings) {
    Map<String, Integer> counts = new TreeMap<>();
    counts.put("raw exceptions", logs.workerEvents("raw").size());
    counts.put("hangs", logs.workerEvents("hang").size());
    counts.put("crashes", logs.faults("crash").size());
    counts.put("workers that would not stop", logs.faults("exit_hang").size());
    findings.tally("failures", counts);
    findings.figure("failures", counts);
    for (WorkerEntry raw : logs.workerEvents("raw")) {
      findings.violation(
          "P5",
          raw.worker()
              + " "
              + raw.call()
              + " on "
              + raw.key()
              + " threw "
              + raw.error()
              + ": "
              + raw.message());
    }
    for (WorkerEntry hang : logs.workerEvents("hang")) {
      findings.violation(
          "P5",
          hang.worker()
              + " "
              + hang.call()
              + " on "
              + hang.key()
              + " did not end within "
              + hang.deadlineMs()
              + " ms (threads dumped in its log)");
    }
    for (String kind : new String[] {"crash", "exit_hang"}) {
      for (DriverEntry fault : logs.faults(kind)) {
        findings.violation("P5", fault.worker() + ": " + kind + " " + fault.detail());
      }
    }
  }
}
