/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * P3, one holder at a time: in the resource's order, a worker entered a key's fenced section while
 * another worker's section on that key was open. A section is open from its ENTER until its EXIT,
 * or until the driver's DEAD for a killed worker (sent while the worker was stopped, before the
 * kill, so that no successor could have entered before it).
 */
final class Exclusion {

  private Exclusion() {}

  static void check(Logs logs, Findings findings) {
    Map<String, Map<String, Long>> open = new HashMap<>();
    for (JsonNode e : logs.resource) {
      if (e.path("late").asBoolean()) {
        continue;
      }
      String worker = e.path("w").asText();
      switch (e.path("op").asText()) {
        case "ENTER":
          Map<String, Long> inside =
              open.computeIfAbsent(e.path("key").asText(), k -> new HashMap<>());
          inside.forEach(
              (other, token) -> {
                if (!other.equals(worker)) {
                  findings.violation(
                      "P3",
                      "seq "
                          + e.path("seq").asLong()
                          + ": "
                          + worker
                          + " (token "
                          + e.path("token").asLong()
                          + ") entered key "
                          + e.path("key").asText()
                          + " while "
                          + other
                          + " (token "
                          + token
                          + ") was inside");
                }
              });
          inside.put(worker, e.path("token").asLong());
          break;
        case "EXIT":
          open.getOrDefault(e.path("key").asText(), new HashMap<>()).remove(worker);
          break;
        case "DEAD":
          open.values().forEach(inside1 -> inside1.remove(worker));
          break;
        default:
          break;
      }
    }
  }
}
