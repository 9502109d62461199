package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.Liveness;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One lease record as {@code lease status} and {@code lease list} show it: the stored snapshot, what
 * this observer can tell about the holder's process, and how long this command saw it unchanged.
 *
 * @param snapshot the record as read
 * @param liveness the holder's process as judged from here; {@code null} for a released record
 * @param observedUnchanged how long this command saw this revision unchanged; zero unless it observed
 *     the record over a window ({@code --observe})
 */
record LeaseView(LeaseSnapshot snapshot, @Nullable Liveness liveness, Duration observedUnchanged) {}
