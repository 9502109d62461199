/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The parsed command line of {@link LeaseHolderMain}; see its description for the options. */
record HolderOptions(
    String factory,
    String spec,
    String key,
    Duration ttl,
    Duration heartbeat,
    Duration maxWait,
    Duration pause,
    Duration work,
    @Nullable Path journal,
    boolean uninterruptible,
    boolean awaitGo,
    @Nullable String host,
    @Nullable String bootId,
    Duration wallClockOffset) {

  private static final Set<String> NAMES =
      Set.of(
          "factory",
          "spec",
          "key",
          "ttl",
          "heartbeat",
          "wait",
          "pause",
          "work",
          "journal",
          "uninterruptible",
          "await-go",
          "host",
          "boot-id",
          "wall-clock-offset");

  /** Parses {@code --name=value} arguments; throws IllegalArgumentException naming a bad one. */
  static HolderOptions parse(List<String> args) {
    Map<String, String> values = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      String name = arg.startsWith("--") ? arg.substring(2, eq < 0 ? arg.length() : eq) : "";
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
      values.put(name, eq < 0 ? "true" : arg.substring(eq + 1));
    }
    String journal = values.get("journal");
    return new HolderOptions(
        required(values, "factory"),
        required(values, "spec"),
        required(values, "key"),
        duration(values, "ttl", "PT2S"),
        duration(values, "heartbeat", "PT0.5S"),
        duration(values, "wait", "PT0S"),
        duration(values, "pause", "PT0.02S"),
        duration(values, "work", "PT0S"),
        journal == null ? null : Path.of(journal),
        Boolean.parseBoolean(values.getOrDefault("uninterruptible", "false")),
        Boolean.parseBoolean(values.getOrDefault("await-go", "false")),
        optional(values, "host"),
        optional(values, "boot-id"),
        duration(values, "wall-clock-offset", "PT0S"));
  }

  /** Formats options for a child's command line. */
  static List<String> format(
      Class<? extends RepositoryFactory> factory,
      String spec,
      String key,
      Duration ttl,
      Duration heartbeat) {
    return List.of(
        "--factory=" + factory.getName(),
        "--spec=" + spec,
        "--key=" + key,
        "--ttl=" + ttl,
        "--heartbeat=" + heartbeat);
  }

  private static String required(Map<String, String> values, String name) {
    String value = values.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("missing --" + name + "=...");
    }
    return value;
  }

  private static @Nullable String optional(Map<String, String> values, String name) {
    String value = values.get(name);
    if (value != null && value.isEmpty()) {
      throw new IllegalArgumentException("--" + name + " must not be empty");
    }
    return value;
  }

  private static Duration duration(Map<String, String> values, String name, String fallback) {
    String text = values.getOrDefault(name, fallback);
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--" + name + " must be an ISO-8601 duration such as PT2S, was '" + text + "'", e);
    }
  }
}
