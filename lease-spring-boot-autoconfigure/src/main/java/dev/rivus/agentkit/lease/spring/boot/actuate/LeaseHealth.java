/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.actuate;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The health of this application's leases, apart from any Spring Boot version's health types: up
 * when the store answers a read and no manager's renewal rounds run late; down when the store fails
 * or a round ran late (its leases came near their deadline: a store too slow for the leases held,
 * or one that hangs), until a round on time. The health indicators of Spring Boot 4 ({@link
 * LeaseHealthIndicator}) and 3 adapt it.
 *
 * <p>A check reads one record on the caller's thread (the health endpoint's), never on a manager's
 * timer. Thread-safe.
 */
public final class LeaseHealth {

  /** The key the check reads; it need not exist. */
  public static final String PROBE_KEY = "lease-health-probe";

  private final LeaseRepository repository;
  private final HeldLeases leases;

  /**
   * Checks {@code repository} and the rounds that {@code leases} saw.
   *
   * @param repository the store of the application's managers
   * @param leases the tracker the managers tell
   */
  public LeaseHealth(LeaseRepository repository, HeldLeases leases) {
    this.repository = Objects.requireNonNull(repository, "repository");
    this.leases = Objects.requireNonNull(leases, "leases");
  }

  /**
   * The outcome of one check.
   *
   * @param up whether the leases are healthy
   * @param details what was found, for the health endpoint: {@code store}, {@code held}, {@code
   *     late} (the managers whose rounds run late), {@code renewalFailing} (held leases whose last
   *     renewal failed), and {@code error} when the store failed
   */
  public record Check(boolean up, Map<String, Object> details) {

    /**
     * Copies the details.
     *
     * @param up whether the leases are healthy
     * @param details what was found
     */
    public Check {
      details = Map.copyOf(details);
    }
  }

  /**
   * Checks now.
   *
   * @return the outcome
   */
  public Check check() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("store", repository.toString());
    List<HeldLeases.Held> held = leases.held();
    details.put("held", held.size());
    // A manager that holds nothing now runs no round that could be on time again.
    java.util.Set<String> holding =
        held.stream().map(HeldLeases.Held::manager).collect(java.util.stream.Collectors.toSet());
    List<String> late =
        leases.rounds().stream()
            .filter(rounds -> rounds.late() && holding.contains(rounds.manager()))
            .map(HeldLeases.Rounds::manager)
            .toList();
    details.put("late", late);
    details.put(
        "renewalFailing",
        held.stream().filter(HeldLeases.Held::renewalFailing).map(HeldLeases.Held::key).toList());
    try {
      repository.load(PROBE_KEY);
    } catch (RuntimeException e) {
      details.put("error", e.getClass().getName() + ": " + e.getMessage());
      return new Check(false, details);
    }
    return new Check(late.isEmpty(), details);
  }
}
