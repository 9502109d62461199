/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One line of a worker's log ({@code worker-<id>.jsonl}): an event of a library worker ({@code
 * Worker}, {@code WorkerMain}, its renewals and its watchdog), of a fenced transaction, or of a
 * {@code lease run} ({@code LeaseRunProcess}), named by {@code ev}. Parsed once, in {@link Logs}; a
 * field the line lacks reads as Jackson's {@code path(name)} reads it: 0, false or the empty
 * string.
 *
 * <p>Immutable; thread-safe.
 *
 * @param nanos when, {@code System.nanoTime()} ({@code t})
 * @param worker the worker's life ({@code w}: {@code w2.3}, or {@code r5.7} for a {@code lease
 *     run})
 * @param event what happened ({@code ev}: {@code acquire_ok}, {@code fenced_lost}, {@code
 *     renew_start}, {@code tx_commit}, ...)
 * @param key the lease key ({@code key})
 * @param token the lease's token ({@code token})
 * @param reason why a lease, its fenced work or a fenced transaction was lost ({@code reason}: a
 *     {@code LeaseLost.Reason}, or {@code RUN_LOST})
 * @param how how the library says it acquired ({@code how} of an {@code acquired} line: {@code
 *     NEW}, {@code TTL_TAKEOVER}, ...)
 * @param error the type of what failed ({@code error})
 * @param message the failure's message ({@code message})
 * @param call the library call that failed or hung ({@code call})
 * @param deadlineMs a hung call's deadline ({@code deadlineMs})
 * @param ttlMs the worker's lease TTL ({@code ttlMs} of its {@code start} line)
 * @param accepted whether the resource accepted a write ({@code accepted} of a {@code write} line)
 * @param tx a fenced transaction's id ({@code tx})
 * @param state a failed fenced transaction's SQL state ({@code state})
 * @param pids the processes of a killed {@code lease run}'s tree still found ({@code pids} of a
 *     {@code survivor} line)
 * @param ms how long the search for them took ({@code ms} of a {@code survivor} line)
 */
record WorkerEntry(
    long nanos,
    String worker,
    String event,
    String key,
    long token,
    String reason,
    String how,
    String error,
    String message,
    String call,
    long deadlineMs,
    long ttlMs,
    boolean accepted,
    String tx,
    String state,
    String pids,
    long ms) {

  /** Reads a line of a worker's log. */
  static WorkerEntry of(JsonNode line) {
    return new WorkerEntry(
        line.path("t").asLong(),
        line.path("w").asText(),
        line.path("ev").asText(),
        line.path("key").asText(),
        line.path("token").asLong(),
        line.path("reason").asText(),
        line.path("how").asText(),
        line.path("error").asText(),
        line.path("message").asText(),
        line.path("call").asText(),
        line.path("deadlineMs").asLong(),
        line.path("ttlMs").asLong(),
        line.path("accepted").asBoolean(),
        line.path("tx").asText(),
        line.path("state").asText(),
        line.path("pids").asText(),
        line.path("ms").asLong());
  }

  /** The lease the line is about, {@code worker/key/token}: one acquisition's. */
  String lease() {
    return worker + "/" + key + "/" + token;
  }
}
