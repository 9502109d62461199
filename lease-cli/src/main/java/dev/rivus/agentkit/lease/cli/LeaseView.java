/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One lease record as {@code lease status} and {@code lease list} show it: the stored snapshot,
 * what this observer can tell about the holder's process, and how long this command saw it
 * unchanged.
 *
 * @param snapshot the record as read
 * @param liveness the holder's process as judged from here; {@code null} for a released record
 * @param observedUnchanged how long this command saw this revision unchanged; zero unless it
 *     observed the record over a window ({@code --observe})
 */
record LeaseView(LeaseSnapshot snapshot, @Nullable Liveness liveness, Duration observedUnchanged) {

  /** How the TTL of a record that does not say its TTL is shown. */
  static final String UNKNOWN_TTL = "unknown";

  /**
   * Names a holder's liveness for people and scripts: {@code alive}, {@code dead} (its process is
   * gone, or its pid now names another process: the lease is taken over at once) or {@code
   * unknown}.
   *
   * @param liveness the judgement
   * @return its word
   */
  static String word(Liveness liveness) {
    switch (liveness) {
      case ALIVE:
        return "alive";
      case GONE:
        return "dead";
      default:
        return "unknown";
    }
  }

  /**
   * The TTL the holder promised in the record, or empty when the record does not say: one written
   * by a version that did not record TTLs is read with {@link LeaseConfig#MAX_DURATION}, so that
   * observers wait as long as any holder could have promised, and showing that number would suggest
   * a holder chose it.
   *
   * @param ttl the TTL read from a record, or the longer of an observer's own and the record's
   * @return the TTL, or empty if it is not known
   */
  static Optional<Duration> known(Duration ttl) {
    return ttl.compareTo(LeaseConfig.MAX_DURATION) >= 0 ? Optional.empty() : Optional.of(ttl);
  }

  /** The record's TTL for people: {@code 1m30s}, or {@code unknown} (see {@link #known}). */
  String ttlWord() {
    return known(snapshot.ttl()).map(DurationConverter::format).orElse(UNKNOWN_TTL);
  }

  /** The holder's liveness word, or {@code null} for a released record. */
  @Nullable String livenessWord() {
    Liveness judged = liveness;
    return judged == null ? null : word(judged);
  }
}
