/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.resource;

import dev.rivus.agentkit.lease.safety.JsonLines;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The protected resource's state and line protocol: per key, the highest token seen, a value and
 * the number of accepted writes, and which workers are inside a fenced section. Every request it
 * handles is logged, with a sequence number, in the order it handles them: that log is the ground
 * truth the checker judges.
 *
 * <p>Requests (one line each; replies are one line):
 *
 * <ul>
 *   <li>{@code ENTER key token worker}, {@code EXIT key token worker}: a fenced section begins or
 *       ends; {@code OK}.
 *   <li>{@code READ key token worker}: {@code OK value}.
 *   <li>{@code WRITE key token worker value}: {@code ACCEPTED}, or {@code REJECTED highest} when
 *       fencing is on and {@code token} is below the highest token seen for the key.
 *   <li>{@code DEAD worker}: the driver reaped the worker; its open sections close ({@code OK n}).
 *       A later request of that worker is answered {@code DEAD} and changes nothing.
 *   <li>{@code OPEN}: the workers inside a section now ({@code OK w1 w2 ...}); not logged.
 *   <li>{@code FINISH}: logs each key's final state ({@code OK}).
 * </ul>
 *
 * <p>Thread-safe: requests are handled one at a time.
 */
final class ProtectedResource {

  private final JsonLines log;
  private final boolean fencing;
  private final Map<String, KeyState> keys = new TreeMap<>();
  private final Set<String> dead = new HashSet<>();
  private long sequence;

  /**
   * Creates a resource.
   *
   * @param log where every handled request goes
   * @param fencing whether a write with a token below the highest seen is rejected; off only for
   *     the negative control
   */
  public ProtectedResource(JsonLines log, boolean fencing) {
    this.log = log;
    this.fencing = fencing;
  }

  private static final class KeyState {
    long highest;
    long value;
    long accepted;
    final Map<String, Long> open = new HashMap<>();
  }

  /**
   * Handles one request.
   *
   * @param request the request line
   * @return the reply line
   */
  public synchronized String handle(String request) {
    List<String> words = List.of(request.trim().split(" +"));
    String op = words.get(0);
    try {
      switch (op) {
        case "ENTER":
        case "READ":
        case "EXIT":
          requireWords(words, 4);
          return keyed(op, words.get(1), Long.parseLong(words.get(2)), words.get(3), 0);
        case "WRITE":
          requireWords(words, 5);
          return keyed(
              op,
              words.get(1),
              Long.parseLong(words.get(2)),
              words.get(3),
              Long.parseLong(words.get(4)));
        case "DEAD":
          requireWords(words, 2);
          return dead(words.get(1));
        case "OPEN":
          return open();
        case "FINISH":
          return finish();
        default:
          throw new IllegalArgumentException("unknown request");
      }
    } catch (IllegalArgumentException bad) {
      Map<String, Object> line = event("ERR");
      line.put("request", request);
      log.write(line);
      return "ERR " + bad.getMessage() + ": " + request;
    }
  }

  private static void requireWords(List<String> words, int count) {
    if (words.size() != count) {
      throw new IllegalArgumentException("expected " + count + " words");
    }
  }

  private Map<String, Object> event(String op) {
    Map<String, Object> line = JsonLines.fields("seq", ++sequence);
    line.put("t", System.nanoTime());
    line.put("op", op);
    return line;
  }

  private String keyed(String op, String key, long token, String worker, long value) {
    Map<String, Object> line = event(op);
    line.put("key", key);
    line.put("token", token);
    line.put("w", worker);
    if (dead.contains(worker)) {
      line.put("late", true);
      log.write(line);
      return "DEAD";
    }
    KeyState state = keys.computeIfAbsent(key, k -> new KeyState());
    String reply = "OK";
    switch (op) {
      case "ENTER":
        state.open.put(worker, token);
        break;
      case "EXIT":
        state.open.remove(worker);
        break;
      case "READ":
        reply = "OK " + state.value;
        line.put("value", state.value);
        break;
      default: // WRITE
        boolean accepted = !fencing || token >= state.highest;
        line.put("value", value);
        line.put("ok", accepted);
        if (accepted) {
          state.value = value;
          state.accepted++;
          reply = "ACCEPTED";
        } else {
          reply = "REJECTED " + state.highest;
        }
        break;
    }
    state.highest = Math.max(state.highest, token);
    line.put("highest", state.highest);
    log.write(line);
    return reply;
  }

  private String dead(String worker) {
    dead.add(worker);
    int closed = 0;
    for (KeyState state : keys.values()) {
      closed += state.open.remove(worker) != null ? 1 : 0;
    }
    Map<String, Object> line = event("DEAD");
    line.put("w", worker);
    line.put("closed", closed);
    log.write(line);
    return "OK " + closed;
  }

  private String open() {
    StringBuilder reply = new StringBuilder("OK");
    keys.values().forEach(state -> state.open.keySet().forEach(w -> reply.append(' ').append(w)));
    return reply.toString();
  }

  private String finish() {
    keys.forEach(
        (key, state) -> {
          Map<String, Object> line = event("FINAL");
          line.put("key", key);
          line.put("value", state.value);
          line.put("accepted", state.accepted);
          line.put("highest", state.highest);
          log.write(line);
        });
    return "OK";
  }
}
