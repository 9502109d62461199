/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The checker's judgement of one phase: each property's violations, the figures, and the outcome.
 * Immutable once made.
 */
public final class Verdict {

  /** How a phase ended. */
  public enum Outcome {
    /** Enough activity, and no violation (or, for the negative control, some). */
    PASS,
    /** A property was violated (or the negative control showed none). */
    FAIL,
    /** Too few acquisitions, writes or faults to judge. */
    INSUFFICIENT,
    /** Not run: its database server was unreachable (never a pass; on CI, a FAIL instead). */
    SKIPPED
  }

  /** Why a property's cases are reported apart. */
  private static final Map<String, String> APART =
      Map.of(
          "P1",
          "store lost on purpose",
          "P3",
          "the holder's key lock lost: a database session ended, its network cut or it was stopped, or the store"
              + " deleted with its key-lock files",
          "P6",
          "clock jumped",
          "P7",
          "the lease process's key lock lost: a database session ended, its network cut or it was stopped, or the"
              + " store deleted with its key-lock files");

  private final Findings findings;
  private final String shortfall;
  private final boolean expectViolations;
  private final String unavailable;
  private final boolean required;

  Verdict(Findings findings, String shortfall, boolean expectViolations) {
    this(findings, shortfall, expectViolations, "", false);
  }

  private Verdict(
      Findings findings,
      String shortfall,
      boolean expectViolations,
      String unavailable,
      boolean required) {
    this.findings = findings;
    this.shortfall = shortfall;
    this.expectViolations = expectViolations;
    this.unavailable = unavailable;
    this.required = required;
  }

  /**
   * The verdict of a phase that could not run: SKIPPED, or FAIL where its server is required (as
   * lease-jdbc's tests do under {@code CI=true}).
   *
   * @param why what was unavailable
   * @param required whether that fails the phase
   * @return the verdict
   */
  public static Verdict unavailable(String why, boolean required) {
    return new Verdict(new Findings(), "", false, why, required);
  }

  /**
   * Returns the phase's outcome.
   *
   * @return PASS, FAIL, INSUFFICIENT or SKIPPED
   */
  public Outcome outcome() {
    if (!unavailable.isEmpty()) {
      return required ? Outcome.FAIL : Outcome.SKIPPED;
    }
    boolean violated = findings.total() > 0;
    if (expectViolations && violated) {
      // A negative control that was caught did its job, however little a loaded machine let it do.
      return Outcome.PASS;
    }
    if (!shortfall.isEmpty()) {
      return Outcome.INSUFFICIENT;
    }
    return violated == expectViolations ? Outcome.PASS : Outcome.FAIL;
  }

  /**
   * Returns the number of violations of a property.
   *
   * @param property {@code P1} to {@code P7}
   * @return the count
   */
  public int violations(String property) {
    return findings.count(property);
  }

  /**
   * Returns the number of cases of a property reported apart (P1 after a store lost on purpose, P6
   * where a clock was jumped, P7 where the {@code lease} process was stopped).
   *
   * @param property {@code P1} to {@code P7}
   * @return the count
   */
  public int reportedApart(String property) {
    return findings.apartCount(property);
  }

  /**
   * Returns the figures, by name.
   *
   * @return the figures, in report order
   */
  public Map<String, String> figures() {
    return Map.copyOf(findings.figures());
  }

  /**
   * Returns the latency figures by name (takeovers, loss to interrupt), for totals across phases.
   *
   * @return the latencies, by figure
   */
  Map<String, Latencies> latencies() {
    return Map.copyOf(findings.latencies());
  }

  /**
   * Returns counts by name ({@code operations}, {@code faults}), for totals across phases.
   *
   * @return the counts, by figure and then by kind
   */
  public Map<String, Map<String, Integer>> tallies() {
    return Map.copyOf(findings.tallies());
  }

  /**
   * Renders the verdict for people: one line per property, then the figures, the examples of each
   * violation, and the outcome.
   *
   * @return the report's lines
   */
  public List<String> report() {
    List<String> lines = new ArrayList<>();
    if (!unavailable.isEmpty()) {
      String ci = required ? " (CI=true: the server is required)" : "";
      lines.add("  outcome: " + outcome() + ": " + unavailable + ci);
      return lines;
    }
    for (String property : Findings.ORDER) {
      String apart =
          findings.apartCount(property) > 0
              ? "   ("
                  + APART.get(property)
                  + ", reported apart: "
                  + findings.apartCount(property)
                  + ")"
              : "";
      lines.add(
          String.format(
              Locale.ROOT,
              "  %s %-48s %d%s",
              property,
              Findings.PROPERTIES.get(property),
              findings.count(property),
              apart));
    }
    findings.figures().forEach((name, value) -> lines.add("  " + name + ": " + value));
    for (String property : Findings.ORDER) {
      findings.examples(property).forEach(e -> lines.add("  " + property + " violation: " + e));
      findings.apartExamples(property).forEach(e -> lines.add("  " + property + " apart: " + e));
    }
    String expectation = expectViolations ? " (negative control: violations expected)" : "";
    String why = shortfall.isEmpty() || outcome() == Outcome.PASS ? "" : ": " + shortfall;
    lines.add("  outcome: " + outcome() + why + expectation);
    return lines;
  }
}
