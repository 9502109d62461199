/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * P4, nothing lost or duplicated: every token the resource saw belongs to exactly one acquisition
 * in the workers' logs, by the worker that used it; every accepted write raised the value it read
 * by one (no lost update); and each key's final value equals its number of accepted writes.
 */
final class Accounting {

  private Accounting() {}

  static void check(Logs logs, Findings findings) {
    checkTokens(logs, findings);
    checkCounters(logs, findings);
  }

  private static void checkTokens(Logs logs, Findings findings) {
    Map<String, List<Acquisition>> byLease =
        logs.acquisitions.stream().collect(Collectors.groupingBy(a -> a.key() + "#" + a.token()));
    Set<String> seen = new HashSet<>();
    for (ResourceEntry e : logs.resource) {
      if (!e.hasToken() || e.late()) {
        continue;
      }
      String lease = e.key() + "#" + e.token();
      if (!seen.add(lease)) {
        continue;
      }
      List<Acquisition> owners = byLease.getOrDefault(lease, List.of());
      String worker = e.worker();
      if (owners.size() != 1) {
        findings.violation(
            "P4",
            "resource saw key "
                + e.key()
                + " token "
                + e.token()
                + " from "
                + worker
                + ", which "
                + owners.size()
                + " acquisitions were granted");
      } else if (!owners.get(0).worker().equals(worker)) {
        findings.violation(
            "P4",
            "resource saw key "
                + e.key()
                + " token "
                + e.token()
                + " from "
                + worker
                + ", but "
                + owners.get(0).worker()
                + " acquired it");
      }
    }
  }

  private static void checkCounters(Logs logs, Findings findings) {
    Map<String, Long> value = new HashMap<>();
    Map<String, Long> accepted = new HashMap<>();
    for (ResourceEntry write : logs.applied("WRITE")) {
      if (!write.ok()) {
        continue;
      }
      String key = write.key();
      long before = value.getOrDefault(key, 0L);
      if (write.value() != before + 1) {
        findings.violation(
            "P4",
            "seq "
                + write.seq()
                + ": key "
                + key
                + " went from "
                + before
                + " to "
                + write.value()
                + " in one write of "
                + write.worker()
                + " (an update was lost)");
      }
      value.put(key, write.value());
      accepted.merge(key, 1L, Long::sum);
    }
    Map<String, ResourceEntry> finals = new HashMap<>();
    logs.applied("FINAL").forEach(f -> finals.put(f.key(), f));
    for (Map.Entry<String, Long> counted : accepted.entrySet()) {
      ResourceEntry last = finals.get(counted.getKey());
      if (last == null) {
        findings.violation("P4", "no final state of key " + counted.getKey() + " was logged");
      } else if (last.accepted() != counted.getValue() || last.value() != counted.getValue()) {
        findings.violation(
            "P4",
            "key "
                + counted.getKey()
                + " ended at value "
                + last.value()
                + " with "
                + last.accepted()
                + " accepted writes counted by the resource, "
                + counted.getValue()
                + " in its log");
      }
    }
  }
}
