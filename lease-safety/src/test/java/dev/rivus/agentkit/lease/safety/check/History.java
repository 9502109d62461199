/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.safety.faults.LostStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-made logs for the checker's tests: worker, resource and driver lines written in the order a
 * test tells a story, with times in milliseconds (stored as nanoseconds).
 */
final class History {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MS = 1_000_000L;

  private final List<JsonNode> workers = new ArrayList<>();
  private final List<JsonNode> resource = new ArrayList<>();
  private final List<JsonNode> driver = new ArrayList<>();
  private final Map<String, Long> values = new LinkedHashMap<>();
  private final Map<String, Long> accepted = new LinkedHashMap<>();
  private long seq;
  private long lastNanos; // the resource's last line: its times only rise

  /** Lets the resource's next line come at {@code atMs} (later ones follow it, 1 ms apart). */
  History at(long atMs) {
    lastNanos = Math.max(lastNanos, atMs * MS - MS);
    return this;
  }

  static Map<String, Object> line(Object... pairs) {
    Map<String, Object> line = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      line.put((String) pairs[i], pairs[i + 1]);
    }
    return line;
  }

  History worker(String w, long ttlMs) {
    workers.add(JSON.valueToTree(line("t", 0L, "w", w, "ev", "start", "ttlMs", ttlMs)));
    return this;
  }

  History event(long atMs, String w, String ev, String key, long token, Object... more) {
    Map<String, Object> line = line("t", atMs * MS, "w", w, "ev", ev, "key", key);
    if (token != 0) {
      line.put("token", token);
    }
    line.putAll(line(more));
    workers.add(JSON.valueToTree(line));
    return this;
  }

  /** A worker's acquisition: called at {@code startMs}, returned at {@code okMs}. */
  History acquire(String w, String key, long token, long startMs, long okMs, String how) {
    event(startMs, w, "acquire_start", key, 0);
    event(okMs, w, "acquire_ok", key, token);
    return event(okMs, w, "acquired", key, token, "how", how);
  }

  History release(long atMs, String w, String key, long token) {
    event(atMs, w, "release_start", key, token);
    return event(atMs, w, "released", key, token);
  }

  History renewal(long startMs, String w, String key, long token) {
    event(startMs, w, "renew_start", key, token);
    return event(startMs + 1, w, "renew_ok", key, token);
  }

  History op(String op, String key, long token, String w, Object... more) {
    ++seq;
    lastNanos = Math.max(seq * MS, lastNanos + MS);
    Map<String, Object> line =
        line("seq", seq, "t", lastNanos, "op", op, "key", key, "token", token, "w", w);
    line.putAll(line(more));
    resource.add(JSON.valueToTree(line));
    return this;
  }

  /** ENTER, READ, WRITE (accepted, the value raised by one), EXIT: one correct fenced section. */
  History section(String key, long token, String w) {
    op("ENTER", key, token, w);
    long value = values.getOrDefault(key, 0L);
    op("READ", key, token, w, "value", value);
    write(key, token, w, value + 1, true);
    return op("EXIT", key, token, w);
  }

  History write(String key, long token, String w, long value, boolean ok) {
    op("WRITE", key, token, w, "value", value, "ok", ok);
    if (ok) {
      values.put(key, value);
      accepted.merge(key, 1L, Long::sum);
    }
    return this;
  }

  History dead(String w) {
    resource.add(JSON.valueToTree(line("seq", ++seq, "t", seq * MS, "op", "DEAD", "w", w)));
    return this;
  }

  History fault(long atMs, String kind, String w, Object... more) {
    Map<String, Object> line = line("t", atMs * MS, "fault", kind, "w", w, "detail", "test");
    line.putAll(line(more));
    driver.add(JSON.valueToTree(line));
    return this;
  }

  /** A store lost on purpose: {@code keyLock} says whether its key-lock files went with it. */
  History storeLoss(long atMs, String kind, String keyLock) {
    driver.add(
        JSON.valueToTree(
            line("t", atMs * MS, "fault", kind, "w", "store", LostStore.KEY_LOCK, keyLock)));
    return this;
  }

  /** A driver line that is not a fault (a store's repair or restart). */
  History note(long atMs, String what) {
    driver.add(JSON.valueToTree(line("t", atMs * MS, "note", what)));
    return this;
  }

  /** The resource's FINAL lines, as it logs them at the end, from what was written so far. */
  History finish() {
    values.forEach(
        (key, value) ->
            resource.add(
                JSON.valueToTree(
                    line(
                        "seq",
                        ++seq,
                        "t",
                        seq * MS,
                        "op",
                        "FINAL",
                        "key",
                        key,
                        "value",
                        value,
                        "accepted",
                        accepted.get(key)))));
    return this;
  }

  Logs logs() {
    return Logs.parse(resource, workers, driver);
  }

  Verdict check() {
    return Checker.check(logs(), new Thresholds(0, 0, 0), false);
  }
}
