package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import java.time.Duration;
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

  /** The holder's liveness word, or {@code null} for a released record. */
  @Nullable String livenessWord() {
    Liveness judged = liveness;
    return judged == null ? null : word(judged);
  }
}
