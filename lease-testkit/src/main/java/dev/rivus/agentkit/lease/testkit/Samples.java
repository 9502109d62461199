package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Sample records and keys for the repository contract. */
final class Samples {

  /**
   * A wall-clock time with microseconds, the finest precision every planned store keeps (PostgreSQL
   * and MySQL stop there), so that a store truncating to milliseconds or seconds is caught.
   */
  static final Instant TIME = Instant.parse("2026-03-14T15:09:26.535897Z");

  /** A TTL with a fraction of a second, so that a store rounding durations is caught. */
  static final Duration TTL = Duration.ofMillis(42_195);

  private Samples() {}

  /** A process whose identity facts are all known, with a non-ASCII host name. */
  static ProcessIdentity knownProcess(long pid) {
    return new ProcessIdentity(
        "büld-host-7.example",
        "8d238104-e8cf-42cf-9b48-991c66e22f51",
        "pid:[4026531836]",
        pid,
        "ticks:" + (900_000 + pid));
  }

  /** A process whose boot id, pid namespace and start time could not be read. */
  static ProcessIdentity unknownProcess(long pid) {
    return new ProcessIdentity("mac-mini", null, null, pid, null);
  }

  static HolderIdentity holder(String handleId) {
    return new HolderIdentity(knownProcess(4121), handleId);
  }

  /** The first acquisition of a key that has no record. */
  static LeaseWrite firstWrite(String key, String handleId) {
    return LeaseSnapshot.firstAcquisition(key, holder(handleId), TTL, TIME);
  }

  /** The first record of a key, as an acquisition writes it. */
  static LeaseSnapshot first(String key, String handleId) {
    return firstWrite(key, handleId).snapshot();
  }

  /**
   * Keys that a naive store would confuse or let escape: path syntax, case and Unicode
   * normalisation variants, encodings of one another, whitespace, reserved device names, and keys
   * whose UTF-8 form is far longer than a file name may be. Every key is distinct from every other.
   */
  static List<String> awkwardKeys() {
    List<String> keys =
        new ArrayList<>(
            List.of(
                "task:42",
                "a/b",
                "a\\b",
                "a_b",
                "a%2Fb",
                "a%2fb",
                "a b",
                "a+b",
                "..",
                ".",
                "../../../../../../tmp/escaped",
                "/etc/passwd",
                "C:\\Windows\\win.ini",
                "./a/../b",
                "key",
                "KEY",
                "Key",
                "CON",
                "nul",
                "aux.txt",
                "trailing dot.",
                "trailing space ",
                " leading space",
                "tab\there",
                "line\nbreak",
                "carriage\rreturn",
                "quote\"and'apostrophe",
                "{\"json\": [1, 2]}",
                "'; DROP TABLE leases; --",
                "x*?<>|:",
                "caf\u00e9",
                "cafe\u0301",
                "日本語のキー",
                "emoji 🚀 key",
                "ﬁ ligature",
                "a".repeat(LeaseKeys.MAX_LENGTH),
                "é".repeat(LeaseKeys.MAX_LENGTH),
                "🚀".repeat(LeaseKeys.MAX_LENGTH / 2),
                "x".repeat(LeaseKeys.MAX_LENGTH - 1) + "y",
                "x".repeat(LeaseKeys.MAX_LENGTH - 1) + "z",
                "x".repeat(255),
                "x".repeat(256)));
    return List.copyOf(keys);
  }

  /** Describes a key for a failure message without flooding it. */
  static String describe(String key) {
    String shown =
        key.length() <= 40 ? key : key.substring(0, 20) + "…(" + key.length() + " chars)";
    return "'" + shown.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + "'";
  }

  /**
   * The acquisition of a record with every field set to an unusual but valid value; its {@link
   * LeaseSnapshot#release} is a tombstone of the same kind.
   */
  static LeaseWrite acquisitionWithLargeNumbers(String key) {
    // 2^53 + 1 does not survive a round trip through a double, as a lax JSON reader would do.
    long beyondDouble = 9_007_199_254_740_993L;
    return new LeaseWrite(
        LeaseWrite.Intent.ACQUIRE,
        new LeaseSnapshot(
            key,
            beyondDouble,
            beyondDouble + 1,
            LeaseState.HELD,
            new HolderIdentity(
                knownProcess(Integer.MAX_VALUE + 7L), "handle with spaces/and?ünïcode"),
            Duration.ofDays(36_500).minusNanos(1),
            TIME),
        0);
  }
}
