/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import dev.rivus.agentkit.lease.safety.driver.Phase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of a run in total, across its phases: violations and cases apart per property (the
 * negative control's counted apart, since it must have some), operations, faults and failures by
 * kind, stale writes rejected, latencies over every phase's samples, the phases' outcomes and
 * seeds.
 *
 * <p>Not thread-safe: one run at a time.
 */
public final class Totals {

  private final Map<String, Integer> violations = new TreeMap<>();
  private final Map<String, Integer> apart = new TreeMap<>();
  private final Map<String, Integer> control = new TreeMap<>();
  private final Map<String, Map<String, Integer>> tallies = new TreeMap<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private final Map<String, Latencies> latencies = new LinkedHashMap<>();
  private final List<String> seeds = new ArrayList<>();

  /** No phase yet. */
  public Totals() {}

  /**
   * Adds a phase's verdict.
   *
   * @param phase the phase
   * @param verdict its verdict
   */
  public void add(Phase phase, Verdict verdict) {
    outcomes.merge(verdict.outcome().name(), 1, Integer::sum);
    seeds.add(phase.label() + "=" + phase.seed());
    for (String property : Findings.ORDER) {
      Map<String, Integer> into = phase.negativeControl() ? control : violations;
      into.merge(property, verdict.violations(property), Integer::sum);
      apart.merge(property, verdict.reportedApart(property), Integer::sum);
    }
    if (phase.negativeControl()) {
      return;
    }
    verdict
        .tallies()
        .forEach(
            (name, counts) ->
                counts.forEach(
                    (kind, n) ->
                        tallies
                            .computeIfAbsent(name, k -> new TreeMap<>())
                            .merge(kind, n, Integer::sum)));
    verdict
        .latencies()
        .forEach((name, measured) -> latencies.merge(name, measured, Latencies::plus));
  }

  /**
   * Renders the totals for people.
   *
   * @return the report's lines, after the phases'
   */
  public List<String> report() {
    List<String> lines = new ArrayList<>();
    lines.add("== total (negative control apart) ==");
    for (String property : Findings.ORDER) {
      lines.add(
          String.format(
              Locale.ROOT,
              "  %s %-48s %d   (reported apart: %d; negative control: %d)",
              property,
              Findings.PROPERTIES.get(property),
              violations.getOrDefault(property, 0),
              apart.getOrDefault(property, 0),
              control.getOrDefault(property, 0)));
    }
    tallies.forEach((name, counts) -> lines.add("  " + name + ": " + counts));
    latencies.forEach((name, measured) -> lines.add("  " + name + ": " + measured.summary()));
    lines.add(
        "  fenced operations (writes accepted or rejected, fenced transactions committed): "
            + fencedOperations());
    lines.add("  faults injected: " + faultsInjected());
    lines.add("  phases: " + outcomes);
    lines.add("  seeds: " + String.join(", ", seeds));
    return lines;
  }

  /**
   * The fenced operations: the writes the workers made to the resource inside fenced sections,
   * accepted or rejected, and the fenced transactions that committed on a database.
   *
   * @return how many, across the phases added (the negative control apart)
   */
  public int fencedOperations() {
    Map<String, Integer> operations = tallies.getOrDefault("operations", Map.of());
    return operations.getOrDefault("write_accepted", 0)
        + operations.getOrDefault("write_rejected", 0)
        + tallies.getOrDefault("fenced transactions", Map.of()).getOrDefault("committed", 0);
  }

  /**
   * The faults the driver injected (a worker's own crash or hang is not one).
   *
   * @return how many, across the phases added (the negative control apart)
   */
  public int faultsInjected() {
    int injected = 0;
    for (Map.Entry<String, Integer> f : tallies.getOrDefault("faults", Map.of()).entrySet()) {
      injected += f.getKey().matches("crash|exit_hang") ? 0 : f.getValue();
    }
    return injected;
  }
}
