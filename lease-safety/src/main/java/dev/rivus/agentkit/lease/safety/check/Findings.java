/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker found in one phase: violations per property (with a few examples each), cases
 * reported apart, and figures. Not thread-safe.
 */
final class Findings {

  /** The properties, in report order, with their one-line names. */
  static final Map<String, String> PROPERTIES =
      Map.of(
          "P1", "tokens only go up",
          "P2", "the resource never accepted a stale write",
          "P3", "never two holders in one key's fenced section",
          "P4", "no token unaccounted for, no update lost",
          "P5", "typed failures only, no hang, no crash",
          "P6", "no takeover of a live holder before its TTL",
          "P7", "no lease run command tree beside a successor",
          "P8", "no key blocked past TTL + grace + 1 s of silence");

  /** The properties in report order. */
  static final List<String> ORDER = List.of("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8");

  private static final int EXAMPLES = 5;

  private final Map<String, List<String>> violations = new LinkedHashMap<>();
  private final Map<String, List<String>> apart = new LinkedHashMap<>();
  private final Map<String, String> figures = new LinkedHashMap<>();
  private final Map<String, Map<String, Integer>> tallies = new LinkedHashMap<>();
  private final Map<String, Latencies> latencies = new LinkedHashMap<>();

  Findings() {
    for (String property : ORDER) {
      violations.put(property, new ArrayList<>());
      apart.put(property, new ArrayList<>());
    }
  }

  void violation(String property, String detail) {
    list(violations, property).add(detail);
  }

  /** A violation, or a case reported apart if {@code apart}. */
  void report(String property, boolean apart, String detail) {
    if (apart) {
      apart(property, detail);
    } else {
      violation(property, detail);
    }
  }

  /** Counts by name, for the totals across phases. */
  void tally(String name, Map<String, Integer> counts) {
    tallies.put(name, new java.util.TreeMap<>(counts));
  }

  Map<String, Map<String, Integer>> tallies() {
    return tallies;
  }

  /** A figure of latencies, kept whole so that the totals can merge the phases' samples. */
  void latencies(String name, Latencies measured) {
    latencies.put(name, measured);
    figure(name, measured.summary());
  }

  Map<String, Latencies> latencies() {
    return latencies;
  }

  void apart(String property, String detail) {
    list(apart, property).add(detail);
  }

  void figure(String name, Object value) {
    figures.put(name, String.valueOf(value));
  }

  int count(String property) {
    return list(violations, property).size();
  }

  int apartCount(String property) {
    return list(apart, property).size();
  }

  int total() {
    return violations.values().stream().mapToInt(List::size).sum();
  }

  List<String> examples(String property) {
    List<String> all = list(violations, property);
    return all.subList(0, Math.min(EXAMPLES, all.size()));
  }

  List<String> apartExamples(String property) {
    List<String> all = list(apart, property);
    return all.subList(0, Math.min(EXAMPLES, all.size()));
  }

  private static List<String> list(Map<String, List<String>> lists, String property) {
    return lists.computeIfAbsent(property, unknown -> new ArrayList<>());
  }

  Map<String, String> figures() {
    return figures;
  }
}
