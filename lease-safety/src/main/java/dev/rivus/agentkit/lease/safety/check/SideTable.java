/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import dev.rivus.agentkit.lease.safety.store.SideTransactions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * P3 for the databases' fence: the fenced transactions ({@link SideTransactions}) against what the
 * database holds at the end (the driver's {@code db: "side"} and {@code db: "sidelog"} lines). Each
 * committed transaction raised its key's counter by one from the value it read, so per key the
 * committed values are exactly 1..n in the order of their tokens, and n is the counter. A value
 * written twice means two transactions overlapped (an update lost); a lower token after a higher
 * one, a stale holder that committed after its successor; a commit reported but not in the
 * database, a commit lost; a refused transaction in the database, work committed without the fence.
 * The counter must equal the commits reported plus those whose outcome was unknown to the worker (a
 * failed commit, a worker killed in the middle) that the database shows; those are counted, not
 * violations.
 */
final class SideTable {

  private SideTable() {}

  /** Whether the phase ran fenced transactions on a database. */
  static boolean ran(Logs logs) {
    return logs.driver.stream().anyMatch(e -> e.db().equals("side"));
  }

  /** The fenced transactions that reported commit. */
  static int committed(Logs logs) {
    return logs.workerEvents("tx_commit").size();
  }

  static void check(Logs logs, Findings findings) {
    if (!ran(logs)) {
      return;
    }
    Map<String, DriverEntry> inDatabase = new HashMap<>();
    Map<String, Long> counters = new TreeMap<>();
    for (DriverEntry e : logs.driver) {
      switch (e.db()) {
        case "sidelog":
          inDatabase.put(e.tx(), e);
          break;
        case "side":
          counters.put(e.key(), e.n());
          break;
        default:
          break;
      }
    }
    Map<String, String> outcome = outcomes(logs);
    checkReports(inDatabase, outcome, findings);
    checkChains(inDatabase, counters, outcome, findings);
    Map<String, Integer> figures = new TreeMap<>();
    for (WorkerEntry e : logs.workers) {
      String event = e.event();
      if (event.equals("tx_commit")) {
        figures.merge("committed", 1, Integer::sum);
      } else if (event.equals("tx_refused")) {
        figures.merge("refused(" + e.reason() + ")", 1, Integer::sum);
      } else if (event.equals("tx_failed")) {
        figures.merge("failed(" + e.state() + ")", 1, Integer::sum);
      }
    }
    long unknown =
        inDatabase.keySet().stream().filter(tx -> !"tx_commit".equals(outcome.get(tx))).count();
    figures.put("in the database", inDatabase.size());
    figures.put("in the database, outcome unknown to the worker", (int) unknown);
    findings.figure("fenced transactions", figures);
    findings.tally("fenced transactions", figures);
  }

  /** Per transaction id, its last reported event ({@code tx_start} if nothing followed). */
  private static Map<String, String> outcomes(Logs logs) {
    Map<String, String> outcome = new HashMap<>();
    for (WorkerEntry e : logs.workers) {
      String event = e.event();
      if (event.startsWith("tx_")) {
        outcome.put(e.tx(), event);
      }
    }
    return outcome;
  }

  private static void checkReports(
      Map<String, DriverEntry> inDatabase, Map<String, String> outcome, Findings findings) {
    outcome.forEach(
        (tx, event) -> {
          if (event.equals("tx_commit") && !inDatabase.containsKey(tx)) {
            findings.violation(
                "P3", "fenced transaction " + tx + " reported commit, but the database lost it");
          } else if (event.equals("tx_refused") && inDatabase.containsKey(tx)) {
            findings.violation(
                "P3",
                "fenced transaction "
                    + tx
                    + " was refused (LeaseLost), but the database committed it (value "
                    + inDatabase.get(tx).value()
                    + ")");
          }
        });
    for (String tx : inDatabase.keySet()) {
      if (!outcome.containsKey(tx)) {
        findings.violation(
            "P3", "the database holds fenced transaction " + tx + ", which no worker started");
      }
    }
  }

  private static void checkChains(
      Map<String, DriverEntry> inDatabase,
      Map<String, Long> counters,
      Map<String, String> outcome,
      Findings findings) {
    Map<String, List<DriverEntry>> byKey = new TreeMap<>();
    inDatabase.values().forEach(e -> byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e));
    Set<String> keys = new HashSet<>(counters.keySet());
    keys.addAll(byKey.keySet());
    for (String key : keys) {
      List<DriverEntry> rows = byKey.getOrDefault(key, List.of());
      List<DriverEntry> ordered = new ArrayList<>(rows);
      ordered.sort(Comparator.comparingLong(DriverEntry::value).thenComparing(DriverEntry::tx));
      for (int i = 0; i < ordered.size(); i++) {
        DriverEntry row = ordered.get(i);
        long value = row.value();
        if (i > 0 && ordered.get(i - 1).value() == value) {
          findings.violation(
              "P3",
              "key "
                  + key
                  + ": fenced transactions "
                  + ordered.get(i - 1).tx()
                  + " (token "
                  + ordered.get(i - 1).token()
                  + ") and "
                  + row.tx()
                  + " (token "
                  + row.token()
                  + ") both committed value "
                  + value
                  + ": they overlapped, and an update was lost");
        } else if (i > 0 && ordered.get(i - 1).token() > row.token()) {
          findings.violation(
              "P3",
              "key "
                  + key
                  + ": fenced transaction "
                  + row.tx()
                  + " (token "
                  + row.token()
                  + ") committed value "
                  + value
                  + " after "
                  + ordered.get(i - 1).tx()
                  + " (token "
                  + ordered.get(i - 1).token()
                  + ") committed "
                  + ordered.get(i - 1).value()
                  + ": a stale holder committed after its successor");
        }
      }
      long counter = counters.getOrDefault(key, 0L);
      long reported = rows.stream().filter(e -> "tx_commit".equals(outcome.get(e.tx()))).count();
      long unknown = rows.size() - reported;
      if (counter != rows.size()) {
        findings.violation(
            "P3",
            "key "
                + key
                + ": the side counter is "
                + counter
                + ", but "
                + rows.size()
                + " fenced transactions committed ("
                + reported
                + " reported, "
                + unknown
                + " of unknown outcome)");
      }
    }
  }
}
