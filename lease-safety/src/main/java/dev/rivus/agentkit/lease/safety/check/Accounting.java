/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;
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
    for (JsonNode e : logs.resource) {
      if (!e.has("token") || e.path("late").asBoolean()) {
        continue;
      }
      String lease = e.path("key").asText() + "#" + e.path("token").asLong();
      if (!seen.add(lease)) {
        continue;
      }
      List<Acquisition> owners = byLease.getOrDefault(lease, List.of());
      String worker = e.path("w").asText();
      if (owners.size() != 1) {
        findings.violation(
            "P4",
            "resource saw key "
                + e.path("key").asText()
                + " token "
                + e.path("token").asLong()
                + " from "
                + worker
                + ", which "
                + owners.size()
                + " acquisitions were granted");
      } else if (!owners.get(0).worker().equals(worker)) {
        findings.violation(
            "P4",
            "resource saw key "
                + e.path("key").asText()
                + " token "
                + e.path("token").asLong()
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
    for (JsonNode write : logs.applied("WRITE")) {
      if (!write.path("ok").asBoolean()) {
        continue;
      }
      String key = write.path("key").asText();
      long before = value.getOrDefault(key, 0L);
      if (write.path("value").asLong() != before + 1) {
        findings.violation(
            "P4",
            "seq "
                + write.path("seq").asLong()
                + ": key "
                + key
                + " went from "
                + before
                + " to "
                + write.path("value").asLong()
                + " in one write of "
                + write.path("w").asText()
                + " (an update was lost)");
      }
      value.put(key, write.path("value").asLong());
      accepted.merge(key, 1L, Long::sum);
    }
    Map<String, JsonNode> finals = new HashMap<>();
    logs.applied("FINAL").forEach(f -> finals.put(f.path("key").asText(), f));
    for (Map.Entry<String, Long> counted : accepted.entrySet()) {
      JsonNode last = finals.get(counted.getKey());
      if (last == null) {
        findings.violation("P4", "no final state of key " + counted.getKey() + " was logged");
      } else if (last.path("accepted").asLong() != counted.getValue()
          || last.path("value").asLong() != counted.getValue()) {
        findings.violation(
            "P4",
            "key "
                + counted.getKey()
                + " ended at value "
                + last.path("value").asLong()
                + " with "
                + last.path("accepted").asLong()
                + " accepted writes counted by the resource, "
                + counted.getValue()
                + " in its log");
      }
    }
  }
}
