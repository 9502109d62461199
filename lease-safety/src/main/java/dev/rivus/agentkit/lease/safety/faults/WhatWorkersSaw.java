/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rivus.agentkit.lease.safety.JsonLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What the workers met between a storage fault and the restart that repaired it, read from the logs
 * of the lives that were stopped (complete once they exited) and of the {@code lease run} slot: the
 * failures by event and type or reason ({@code acquire_failed(StoreLost)}, {@code
 * renew_failed(LeaseRepositoryFailure)}, {@code lost(STORE_LOST)}, {@code run_exit(1)}, ...) and
 * the first three distinct messages of each, written to the driver's log as {@code "note":"seen"}.
 * It is a figure for a reader of the log; the checker judges the same lines itself.
 *
 * <p>Thread-safe: no state.
 */
final class WhatWorkersSaw {

  private static final int MESSAGE_CHARS = 400;
  private static final int MESSAGES = 3;

  private WhatWorkersSaw() {}

  static void log(StoreSite site, String kind, long fromNanos, List<String> lives) {
    List<Path> logs = new ArrayList<>();
    lives.forEach(id -> logs.add(site.workerLog(id)));
    try (Stream<Path> files = Files.list(site.phaseDir())) {
      files
          .filter(f -> f.getFileName().toString().matches("worker-r\\d+\\.jsonl"))
          .forEach(logs::add);
    } catch (IOException e) {
      // no lease run log: nothing more to read
    }
    Map<String, Integer> events = new TreeMap<>();
    Map<String, Set<String>> messages = new TreeMap<>();
    long toNanos = System.nanoTime();
    for (Path file : logs) {
      if (!Files.exists(file)) {
        continue;
      }
      for (JsonNode e : JsonLines.read(file)) {
        long t = e.path("t").asLong();
        if (t < fromNanos || t > toNanos) {
          continue;
        }
        String what = describe(e);
        if (what == null) {
          continue;
        }
        events.merge(what, 1, Integer::sum);
        String message = e.has("message") ? e.path("message").asText() : e.path("line").asText();
        Set<String> distinct = messages.computeIfAbsent(what, w -> new LinkedHashSet<>());
        if (!message.isEmpty() && distinct.size() < MESSAGES) {
          distinct.add(message.substring(0, Math.min(MESSAGE_CHARS, message.length())));
        }
      }
    }
    messages.values().removeIf(Set::isEmpty);
    Map<String, Object> line = StoreSite.note("seen");
    line.put("kind", kind);
    line.put("events", events);
    line.put("messages", messages);
    site.log().write(line);
  }

  /** The event's name with its error, reason or exit code; null for an event of no interest. */
  private static @Nullable String describe(JsonNode e) {
    String ev = e.path("ev").asText();
    switch (ev) {
      case "acquire_failed":
      case "fenced_failed":
      case "renew_failed":
      case "renewal_failed":
      case "raw":
        return ev + "(" + e.path("error").asText() + ")";
      case "lost":
      case "fenced_lost":
        return ev + "(" + e.path("reason").asText() + ")";
      case "run_exit":
        return ev + "(" + e.path("code").asText() + ")";
      case "run_stderr":
      case "hang":
      case "acquire_ok":
        return ev;
      default:
        return null;
    }
  }
}
