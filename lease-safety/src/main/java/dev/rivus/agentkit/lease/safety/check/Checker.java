/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.nio.file.Path;
import java.util.Set;

/**
 * Judges one phase's logs: properties P1–P8 with their violation counts, figures, and whether the
 * phase did enough to count. Pure: it reads logs and computes, nothing else.
 *
 * <p>Thread-safe: it keeps no state.
 */
public final class Checker {

  private Checker() {}

  /**
   * Checks the logs in a phase's directory.
   *
   * @param phaseDirectory the directory with {@code resource.jsonl}, {@code driver.jsonl} and the
   *     workers' logs
   * @param thresholds the least activity that counts
   * @param expectViolations whether the phase is a negative control, which passes only if it shows
   *     violations
   * @return the verdict
   */
  public static Verdict check(
      Path phaseDirectory, Thresholds thresholds, boolean expectViolations) {
    return check(Logs.load(phaseDirectory), thresholds, expectViolations);
  }

  static Verdict check(Logs logs, Thresholds thresholds, boolean expectViolations) {
    Findings findings = new Findings();
    TokenOrder.check(logs, findings);
    Fencing.check(logs, findings);
    Exclusion.check(logs, findings);
    Accounting.check(logs, findings);
    Failures.check(logs, findings);
    EarlyTakeover.check(logs, findings);
    SideTable.check(logs, findings);
    LeaseRunOverlap.check(logs, findings);
    Figures.count(logs, findings);
    Takeovers.measure(logs, findings);
    KeyBlocking.check(logs, findings);
    LossDelay.measure(logs, findings);
    StoreLoss.measure(logs, findings);
    long accepted = logs.applied("WRITE").stream().filter(ResourceEntry::ok).count();
    String shortfall = "";
    if (logs.acquisitions.size() < thresholds.acquisitions()) {
      shortfall += " acquisitions " + logs.acquisitions.size() + " < " + thresholds.acquisitions();
    }
    if (accepted < thresholds.writes()) {
      shortfall += " accepted writes " + accepted + " < " + thresholds.writes();
    }
    if (SideTable.ran(logs) && SideTable.committed(logs) < thresholds.acquisitions() / 2) {
      shortfall +=
          " fenced transactions committed "
              + SideTable.committed(logs)
              + " < "
              + thresholds.acquisitions() / 2;
    }
    int faults = Figures.injectedFaults(logs);
    if (faults < thresholds.faults()) {
      shortfall += " faults " + faults + " < " + thresholds.faults();
    }
    for (Set<String> family : thresholds.faultKinds()) {
      if (family.stream().allMatch(kind -> logs.faults(kind).isEmpty())) {
        shortfall += " no fault of " + String.join("|", family);
      }
    }
    long leaseRuns =
        logs.acquisitions.stream().filter(a -> LeaseRunOverlap.isLeaseRun(a.worker())).count();
    if (leaseRuns < thresholds.leaseRunAcquisitions()) {
      shortfall +=
          " lease run acquisitions " + leaseRuns + " < " + thresholds.leaseRunAcquisitions();
    }
    return new Verdict(findings, shortfall.trim(), expectViolations);
  }
}
