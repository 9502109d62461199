package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;

/** Sample records for the SQLite tests. */
final class Records {

  static final Instant TIME = Instant.parse("2026-03-14T15:09:26.535897123Z");

  static final Duration TTL = Duration.ofMillis(30_001);

  private Records() {}

  static HolderIdentity holder(String handleId) {
    return new HolderIdentity(
        new ProcessIdentity("host-1", "boot-1", "pid:[1]", 4121, "ticks:77"), handleId);
  }

  /** The first acquisition of a key that has no record. */
  static LeaseWrite firstWrite(String key, String handleId) {
    return LeaseSnapshot.firstAcquisition(key, holder(handleId), TTL, TIME);
  }

  /** The record the first acquisition writes. */
  static LeaseSnapshot first(String key, String handleId) {
    return firstWrite(key, handleId).snapshot();
  }
}
