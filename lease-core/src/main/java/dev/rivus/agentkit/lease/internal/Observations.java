package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * When this manager first saw each key's current record, on its own monotonic clock. The TTL runs
 * from that moment; no timestamp written in the record is ever trusted for expiry.
 */
final class Observations {

  private final ConcurrentMap<String, Seen> seen = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;

  Observations(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /**
   * Records that {@code snapshot} was read now, and returns how long it has been seen unchanged.
   */
  Duration observe(LeaseSnapshot snapshot) {
    long now = nanoTime.getAsLong();
    Seen first =
        seen.compute(
            snapshot.key(),
            (key, previous) ->
                previous != null && previous.isSameRevisionAs(snapshot)
                    ? previous
                    : new Seen(snapshot.revision(), snapshot.generation(), now));
    return Duration.ofNanos(now - first.firstSeenNanos);
  }

  /** Forgets a key, once this manager acquired it. */
  void forget(String key) {
    seen.remove(key);
  }

  private static final class Seen {
    final long revision;
    final long generation;
    final long firstSeenNanos;

    Seen(long revision, long generation, long firstSeenNanos) {
      this.revision = revision;
      this.generation = generation;
      this.firstSeenNanos = firstSeenNanos;
    }

    boolean isSameRevisionAs(LeaseSnapshot snapshot) {
      return revision == snapshot.revision() && generation == snapshot.generation();
    }
  }
}
