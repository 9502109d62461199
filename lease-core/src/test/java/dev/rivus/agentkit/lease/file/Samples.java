package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;

/** Snapshots for the file repository's tests. */
final class Samples {

  static final Instant NOW = Instant.parse("2025-03-04T05:06:07.123456789Z");

  private Samples() {}

  static HolderIdentity holder(String handleId) {
    return new HolderIdentity(
        new ProcessIdentity(
            "build-7.example",
            "6c1a5f7e-2b1d-4d6e-9f3a-0c8b7a6d5e4f",
            "pid:[4026531836]",
            4121,
            "983345"),
        handleId);
  }

  static HolderIdentity holderWithUnknownFacts(String handleId) {
    return new HolderIdentity(new ProcessIdentity("mac-mini", null, null, 77, null), handleId);
  }

  static final Duration TTL = Duration.ofSeconds(60);

  static LeaseWrite firstWrite(String key) {
    return LeaseSnapshot.firstAcquisition(key, holder("h-1"), TTL, NOW);
  }

  static LeaseSnapshot first(String key) {
    return firstWrite(key).snapshot();
  }

  /** An acquisition that creates a record of the given generation and revision. */
  static LeaseWrite write(String key, long generation, long revision) {
    return new LeaseWrite(LeaseWrite.Intent.ACQUIRE, snapshot(key, generation, revision), 0);
  }

  static LeaseSnapshot snapshot(String key, long generation, long revision) {
    return new LeaseSnapshot(
        key, generation, revision, LeaseState.HELD, holder("h-" + generation), TTL, NOW);
  }
}
