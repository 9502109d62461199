/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rivus.agentkit.lease.safety.faults.LostStore;

/**
 * One line of the driver's log ({@code driver.jsonl}): a fault it injected or met ({@code fault}),
 * a note ({@code note}), or on a database the side table's final state ({@code db}). Parsed once,
 * in {@link Logs}; a field the line lacks reads as Jackson's {@code path(name)} reads it: 0, false
 * or the empty string.
 *
 * <p>Immutable; thread-safe.
 *
 * @param nanos when, {@code System.nanoTime()} ({@code t})
 * @param worker whom a fault hit ({@code w}: a worker's life, a {@code lease run}, {@code store},
 *     {@code all}, {@code server})
 * @param fault the fault's kind ({@code fault}: {@code kill}, {@code stop}, {@code db_cut}, {@code
 *     store_delete}, {@code crash}, ...)
 * @param isFault whether the line is a fault's (it has {@code fault})
 * @param note what a note says ({@code note}: {@code repair}, {@code restart}, ...)
 * @param detail a crash's or a hang's detail ({@code detail})
 * @param keyLock whether a store lost on purpose took its key-lock files with it ({@code removed})
 *     or not ({@code kept}) ({@link LostStore#KEY_LOCK})
 * @param hasError whether a fault failed ({@code error} present: a {@code db_kill} that could not
 *     ask the server)
 * @param sessions how many sessions a {@code db_kill} ended ({@code sessions}, their ids)
 * @param db which of the side table's final state the line is ({@code db}: {@code side}, a key's
 *     counter; {@code sidelog}, a committed fenced transaction)
 * @param tx a committed fenced transaction's id ({@code tx})
 * @param key the key of a counter or of a committed fenced transaction ({@code key})
 * @param token a committed fenced transaction's token ({@code token})
 * @param value the value a fenced transaction committed ({@code value})
 * @param n a key's counter ({@code n})
 */
record DriverEntry(
    long nanos,
    String worker,
    String fault,
    boolean isFault,
    String note,
    String detail,
    String keyLock,
    boolean hasError,
    int sessions,
    String db,
    String tx,
    String key,
    long token,
    long value,
    long n) {

  /** Reads a line of the driver's log. */
  static DriverEntry of(JsonNode line) {
    return new DriverEntry(
        line.path("t").asLong(),
        line.path("w").asText(),
        line.path("fault").asText(),
        line.has("fault"),
        line.path("note").asText(),
        line.path("detail").asText(),
        line.path(LostStore.KEY_LOCK).asText(),
        line.has("error"),
        line.path("sessions").size(),
        line.path("db").asText(),
        line.path("tx").asText(),
        line.path("key").asText(),
        line.path("token").asLong(),
        line.path("value").asLong(),
        line.path("n").asLong());
  }
}
