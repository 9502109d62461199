/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One line of the resource's log ({@code resource.jsonl}, written by {@code ProtectedResource}): a
 * request it handled, in the order it handled them, or a key's final state. Parsed once, in {@link
 * Logs}; a field the line lacks reads as Jackson's {@code path(name)} reads it: 0, false or the
 * empty string.
 *
 * <p>Immutable; thread-safe.
 *
 * @param seq the resource's sequence number ({@code seq})
 * @param nanos when the resource handled it, {@code System.nanoTime()} ({@code t})
 * @param op the request ({@code ENTER}, {@code READ}, {@code WRITE}, {@code EXIT}, {@code DEAD},
 *     {@code ERR}), or {@code FINAL} for a key's final state ({@code op})
 * @param key the key ({@code key})
 * @param token the token the request came with ({@code token})
 * @param hasToken whether the line has a token: a request on a key, not {@code DEAD}, {@code ERR}
 *     or {@code FINAL}
 * @param worker the worker that sent it, or that {@code DEAD} names ({@code w})
 * @param late whether it came from a worker after the driver's {@code DEAD} for it, and so changed
 *     nothing ({@code late})
 * @param ok whether a {@code WRITE} was accepted ({@code ok})
 * @param value the value a {@code READ} read, a {@code WRITE} wrote, or a key's final value ({@code
 *     value})
 * @param accepted a key's accepted writes, as the resource counted them ({@code accepted} of a
 *     {@code FINAL} line)
 */
record ResourceEntry(
    long seq,
    long nanos,
    String op,
    String key,
    long token,
    boolean hasToken,
    String worker,
    boolean late,
    boolean ok,
    long value,
    long accepted) {

  /** Reads a line of the resource's log. */
  static ResourceEntry of(JsonNode line) {
    return new ResourceEntry(
        line.path("seq").asLong(),
        line.path("t").asLong(),
        line.path("op").asText(),
        line.path("key").asText(),
        line.path("token").asLong(),
        line.has("token"),
        line.path("w").asText(),
        line.path("late").asBoolean(),
        line.path("ok").asBoolean(),
        line.path("value").asLong(),
        line.path("accepted").asLong());
  }
}
