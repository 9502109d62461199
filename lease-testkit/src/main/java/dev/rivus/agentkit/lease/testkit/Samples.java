/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
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

/**
 * Sample processes, holders, records and keys for tests of repositories and managers: one set, so
 * that every module's tests speak of the same things. The values are chosen to catch stores that
 * lose precision or confuse keys. Immutable.
 */
public final class Samples {

  /**
   * A wall-clock time with microseconds, the finest precision every planned store keeps (PostgreSQL
   * and MySQL stop there), so that a store truncating to milliseconds or seconds is caught.
   */
  public static final Instant TIME = Instant.parse("2026-03-14T15:09:26.535897Z");

  /** A TTL with a fraction of a second, so that a store rounding durations is caught. */
  public static final Duration TTL = Duration.ofMillis(42_195);

  private Samples() {}

  /** The boot id of {@link #sibling} processes. */
  public static final String BOOT = "boot-1";

  /** The pid namespace of {@link #sibling} processes. */
  public static final String PID_NAMESPACE = "pid:[4026531836]";

  /**
   * A process whose identity facts are all known, with a non-ASCII host name.
   *
   * @param pid its pid
   * @return its identity
   */
  public static ProcessIdentity knownProcess(long pid) {
    return new ProcessIdentity(
        "büld-host-7.example",
        "8d238104-e8cf-42cf-9b48-991c66e22f51",
        "pid:[4026531836]",
        pid,
        "ticks:" + (900_000 + pid));
  }

  /**
   * A process whose boot id, pid namespace and start time could not be read.
   *
   * @param pid its pid
   * @return its identity
   */
  public static ProcessIdentity unknownProcess(long pid) {
    return new ProcessIdentity("mac-mini", null, null, pid, null);
  }

  /**
   * A process on one shared host: siblings share its boot id and pid namespace, so they judge one
   * another's liveness.
   *
   * @param pid its pid
   * @return its identity
   */
  public static ProcessIdentity sibling(long pid) {
    return new ProcessIdentity("build-7", BOOT, PID_NAMESPACE, pid, "ticks:" + (1000 + pid));
  }

  /**
   * A process on the siblings' host and boot, but in another pid namespace (a container).
   *
   * @param pid its pid
   * @return its identity
   */
  public static ProcessIdentity inAnotherContainer(long pid) {
    return new ProcessIdentity("build-7", BOOT, "pid:[4026532999]", pid, "ticks:" + (1000 + pid));
  }

  /**
   * A process on the siblings' host after a reboot.
   *
   * @param pid its pid
   * @return its identity
   */
  public static ProcessIdentity onAnotherBoot(long pid) {
    return new ProcessIdentity("build-7", "boot-2", PID_NAMESPACE, pid, "ticks:" + (1000 + pid));
  }

  /**
   * A fake platform whose current process is the {@link #sibling} with this pid.
   *
   * @param pid its pid
   * @return a new fake platform
   */
  public static FakePlatform platformOf(long pid) {
    return new FakePlatform(sibling(pid));
  }

  /**
   * A holder in a {@link #knownProcess}.
   *
   * @param handleId the handle's id
   * @return the holder
   */
  public static HolderIdentity holder(String handleId) {
    return new HolderIdentity(knownProcess(4121), handleId);
  }

  /**
   * A holder in an {@link #unknownProcess}.
   *
   * @param handleId the handle's id
   * @return the holder
   */
  public static HolderIdentity unknownHolder(String handleId) {
    return new HolderIdentity(unknownProcess(77), handleId);
  }

  /**
   * The first acquisition of a key that has no record.
   *
   * @param key the key
   * @param handleId the acquiring handle's id
   * @return the write
   */
  public static LeaseWrite firstWrite(String key, String handleId) {
    return LeaseSnapshot.firstAcquisition(key, holder(handleId), TTL, TIME);
  }

  /**
   * The first record of a key, as an acquisition writes it.
   *
   * @param key the key
   * @param handleId the acquiring handle's id
   * @return the record
   */
  public static LeaseSnapshot first(String key, String handleId) {
    return firstWrite(key, handleId).snapshot();
  }

  /**
   * An acquisition that writes a held record of the given generation and revision, as if the key
   * had no record yet.
   *
   * @param key the key
   * @param generation the record's generation
   * @param revision the record's revision
   * @return the write
   */
  public static LeaseWrite write(String key, long generation, long revision) {
    return new LeaseWrite(LeaseWrite.Intent.ACQUIRE, snapshot(key, generation, revision), 0);
  }

  /**
   * A held record of the given generation and revision, held by handle {@code h-GENERATION}.
   *
   * @param key the key
   * @param generation the record's generation
   * @param revision the record's revision
   * @return the record
   */
  public static LeaseSnapshot snapshot(String key, long generation, long revision) {
    return new LeaseSnapshot(
        key, generation, revision, LeaseState.HELD, holder("h-" + generation), TTL, TIME);
  }

  /**
   * Keys that a naive store would confuse or let escape: path syntax, case and Unicode
   * normalisation variants, encodings of one another, whitespace, reserved device names, and keys
   * whose UTF-8 form is far longer than a file name may be. Every key is distinct from every other.
   *
   * @return the keys, distinct
   */
  public static List<String> awkwardKeys() {
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

  /**
   * Describes a key for a failure message without flooding it.
   *
   * @param key the key
   * @return a short, quoted, escaped form
   */
  public static String describe(String key) {
    String shown =
        key.length() <= 40 ? key : key.substring(0, 20) + "…(" + key.length() + " chars)";
    return "'" + shown.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + "'";
  }

  /**
   * The acquisition of a record with every field set to an unusual but valid value; its {@link
   * LeaseSnapshot#release} is a tombstone of the same kind.
   *
   * @param key the key
   * @return the write
   */
  public static LeaseWrite acquisitionWithLargeNumbers(String key) {
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
