/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import dev.rivus.agentkit.lease.safety.driver.PhaseRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * P8, a key is never blocked longer than TTL + grace + margin after its holder went silent: for
 * every holder the driver silenced (its network cut, {@code db_cut}; stopped, {@code stop} or
 * {@code run_stop}) while it held a lease, how long until the first other worker that acquired the
 * key after it entered the key's fenced section. Across machines nothing is exclusive for ever: the
 * lease ends after the TTL, and on a database the server ends the silent holder's key lock after
 * its TTL, its grace and 1 s ({@code LeaseRepository.lockKey(key, silenceLimit)}), so that
 * successor must enter by then, or at once if it acquired later, within {@link #SLACK}.
 *
 * <p>Judged in the database phases only: on one machine a stopped process keeps its kernel lock (a
 * file lock) by design, as the kernel knows it is alive, so there the waits are a figure only. A
 * successor that was itself hit by a fault between its acquisition and its entry is reported apart.
 * Stateless.
 */
final class KeyBlocking {

  /**
   * What a successor may take beyond the bound: the successor's own polling of the key lock and of
   * the record, its start, and a loaded machine's scheduling.
   */
  static final Duration SLACK = Duration.ofSeconds(2);

  /** What the server adds to the silence limit (JdbcLeaseRepository.KEY_LOCK_SILENCE_MARGIN). */
  static final Duration SERVER_MARGIN = Duration.ofSeconds(1);

  private static final List<String> SILENCING = List.of("db_cut", "stop", "run_stop");

  private KeyBlocking() {}

  static void check(Logs logs, Findings findings) {
    boolean judged = logs.isDatabasePhase();
    Map<String, Long> ends = Takeovers.leaseEnds(logs);
    List<Long> waits = new ArrayList<>();
    int notEntered = 0;
    for (String kind : SILENCING) {
      for (DriverEntry fault : logs.faults(kind)) {
        long at = fault.nanos();
        String worker = fault.worker();
        for (Acquisition held : Takeovers.heldAt(logs, ends, worker, at)) {
          Acquisition next = successor(logs, held, at);
          long entered = next == null ? -1 : entry(logs, next);
          if (next == null || entered < 0) {
            notEntered++;
            continue;
          }
          waits.add(entered - at);
          if (judged) {
            judge(logs, findings, kind, held, at, next, entered);
          }
        }
      }
    }
    findings.latencies(
        judged
            ? "key blocked after its holder went silent (P8)"
            : "key blocked after its holder went silent (a figure: local locks)",
        new Latencies(waits, notEntered));
  }

  private static void judge(
      Logs logs,
      Findings findings,
      String kind,
      Acquisition held,
      long silentAt,
      Acquisition next,
      long entered) {
    long ttl =
        Duration.ofMillis(
                logs.ttlMillis.getOrDefault(held.worker(), PhaseRunner.LONG_TTL.toMillis()))
            .toNanos();
    long bound = ttl + PhaseRunner.GRACE.toNanos() + SERVER_MARGIN.toNanos();
    long due = Math.max(next.okNanos(), silentAt + bound);
    long late = entered - due;
    if (late <= SLACK.toNanos()) {
      return;
    }
    boolean hitItself = faultOn(logs, next.worker(), next.okNanos(), entered);
    findings.report(
        "P8",
        hitItself,
        String.format(
            Locale.ROOT,
            "%s (token %d) entered key %s %.1f s after %s (token %d) went silent (%s), %.1f s"
                + " after its own acquisition; the bound (TTL + grace + %d s) was %.1f s",
            next.worker(),
            next.token(),
            held.key(),
            (entered - silentAt) / 1e9,
            held.worker(),
            held.token(),
            kind,
            (entered - next.okNanos()) / 1e9,
            SERVER_MARGIN.toSeconds(),
            bound / 1e9));
  }

  /** The first acquisition of the key by another worker after {@code at}, above its token. */
  private static @Nullable Acquisition successor(Logs logs, Acquisition held, long at) {
    @Nullable Acquisition first = null;
    for (Acquisition a : logs.acquisitions) {
      if (a.key().equals(held.key())
          && !a.worker().equals(held.worker())
          && a.token() > held.token()
          && a.okNanos() > at
          && (first == null || a.okNanos() < first.okNanos())) {
        first = a;
      }
    }
    return first;
  }

  /** When {@code a}'s worker entered the key's fenced section with its token, or -1. */
  private static long entry(Logs logs, Acquisition a) {
    for (ResourceEntry e : logs.resource) {
      if (e.op().equals("ENTER")
          && e.worker().equals(a.worker())
          && e.key().equals(a.key())
          && e.token() == a.token()) {
        return e.nanos();
      }
    }
    return -1;
  }

  private static boolean faultOn(Logs logs, String worker, long from, long to) {
    for (DriverEntry fault : logs.driver) {
      long t = fault.nanos();
      if (fault.isFault() && fault.worker().equals(worker) && t >= from && t <= to) {
        return true;
      }
    }
    return false;
  }
}
