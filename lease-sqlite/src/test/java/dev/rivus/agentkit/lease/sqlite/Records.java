package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Instant;

/** Sample records for the SQLite tests. */
final class Records {

  static final Instant TIME = Instant.parse("2026-03-14T15:09:26.535897123Z");

  private Records() {}

  static HolderIdentity holder(String handleId) {
    return new HolderIdentity(
        new ProcessIdentity("host-1", "boot-1", "pid:[1]", 4121, "ticks:77"), handleId);
  }

  static LeaseSnapshot first(String key, String handleId) {
    return LeaseSnapshot.first(key, holder(handleId), TIME);
  }
}
