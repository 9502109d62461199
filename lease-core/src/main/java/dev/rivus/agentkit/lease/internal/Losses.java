/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseLost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The losses of one tick or round, logged as one warning however many leases they are: a store too
 * slow for 10,000 leases, or lost with them, wrote 10,000 lines. The listener still hears of each
 * loss. Used by one thread; {@link #tell} hands the list to {@link Warnings#lost}, which also
 * gathers the losses of the ticks that follow within a heartbeat into one line.
 */
final class Losses {

  /** How many keys one warning names before it only counts. */
  private static final int NAMED = 3;

  private final List<ManagedLease> lost = new ArrayList<>(0);

  void add(ManagedLease lease) {
    lost.add(lease);
  }

  /** Logs the losses added so far, in one line with those of the manager's last heartbeat. */
  void tell(ManagerParts parts) {
    if (lost.isEmpty()) {
      return;
    }
    List<ManagedLease> told = List.copyOf(lost);
    lost.clear();
    parts.warnings().lost(told, parts.timing().config().heartbeat());
  }

  /**
   * One line for {@code lost}, at least one lease: its own message for one lease told at once; for
   * more, or for those gathered {@code within} a while, a count by reason, three keys and the first
   * message.
   */
  static String message(List<ManagedLease> lost, @Nullable Duration within) {
    String first = String.valueOf(lost.get(0).lossOrReleased().getMessage());
    if (lost.size() == 1 && within == null) {
      return first;
    }
    Map<LeaseLost.Reason, Integer> byReason = new EnumMap<>(LeaseLost.Reason.class);
    StringJoiner named = new StringJoiner(", ");
    for (int i = 0; i < lost.size(); i++) {
      ManagedLease lease = lost.get(i);
      byReason.merge(lease.lossOrReleased().reason(), 1, Integer::sum);
      if (i < NAMED) {
        named.add("'" + lease.key() + "' generation " + lease.generation());
      }
    }
    StringJoiner reasons = new StringJoiner(", ");
    byReason.forEach(
        (reason, count) ->
            reasons.add(
                String.format(Locale.ROOT, "%,d ", count)
                    + reason.name().toLowerCase(Locale.ROOT).replace('_', ' ')));
    String when =
        within == null
            ? " at once"
            : String.format(Locale.ROOT, " in the last %.1f s", within.toNanos() / 1e9);
    return String.format(Locale.ROOT, "%,d lease%s", lost.size(), lost.size() == 1 ? "" : "s")
        + (lost.size() == 1 ? " was" : " were")
        + " lost"
        + when
        + " ("
        + reasons
        + "): "
        + named
        + (lost.size() > NAMED
            ? String.format(Locale.ROOT, " and %,d more", lost.size() - NAMED)
            : "")
        + "; the first: "
        + first;
  }
}
