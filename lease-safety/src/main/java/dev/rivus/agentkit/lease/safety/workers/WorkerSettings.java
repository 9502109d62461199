/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one worker JVM runs with, as passed on its command line ({@code --name value} pairs).
 *
 * <p>Immutable, with an unmodifiable list of keys (as the driver and {@link #parse} give it);
 * thread-safe.
 *
 * @param id the worker's id for this life, for example {@code w2.3} (slot 2, third life)
 * @param store the repository
 * @param phaseDirectory where the store and the logs are
 * @param port the protected resource's port
 * @param ttl the lease TTL
 * @param heartbeat the renewal interval
 * @param keys the keys it acquires, at random
 * @param seed the seed of its random choices
 * @param deadline how long one library call may take before it is a hang
 */
public record WorkerSettings(
    String id,
    StoreKind store,
    Path phaseDirectory,
    int port,
    Duration ttl,
    Duration heartbeat,
    List<String> keys,
    long seed,
    Duration deadline) {

  /**
   * Returns the worker's log file.
   *
   * @return {@code <phase>/worker-<id>.jsonl}
   */
  public Path logFile() {
    return phaseDirectory.resolve("worker-" + id + ".jsonl");
  }

  /**
   * Renders the settings as command-line arguments.
   *
   * @return arguments that {@link #parse} reads back
   */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>();
    args.addAll(List.of("--id", id, "--store", store.label()));
    args.addAll(List.of("--dir", phaseDirectory.toString(), "--port", Integer.toString(port)));
    args.addAll(List.of("--ttl-ms", Long.toString(ttl.toMillis())));
    args.addAll(List.of("--heartbeat-ms", Long.toString(heartbeat.toMillis())));
    args.addAll(List.of("--keys", String.join(",", keys), "--seed", Long.toString(seed)));
    args.addAll(List.of("--deadline-ms", Long.toString(deadline.toMillis())));
    return args;
  }

  /**
   * Reads settings from command-line arguments.
   *
   * @param args {@code --name value} pairs, as {@link #toArgs()} writes them
   * @return the settings
   * @throws IllegalArgumentException if an argument is missing or malformed
   */
  public static WorkerSettings parse(String[] args) {
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("expected --name value pairs, got " + List.of(args));
    }
    Map<String, String> named = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      named.put(args[i], args[i + 1]);
    }
    return new WorkerSettings(
        require(named, "--id"),
        StoreKind.of(require(named, "--store")),
        Path.of(require(named, "--dir")),
        Integer.parseInt(require(named, "--port")),
        Duration.ofMillis(Long.parseLong(require(named, "--ttl-ms"))),
        Duration.ofMillis(Long.parseLong(require(named, "--heartbeat-ms"))),
        List.of(require(named, "--keys").split(",")),
        Long.parseLong(require(named, "--seed")),
        Duration.ofMillis(Long.parseLong(require(named, "--deadline-ms"))));
  }

  private static String require(Map<String, String> named, String name) {
    String value = named.get(name);
    if (value == null) {
      throw new IllegalArgumentException("missing " + name);
    }
    return value;
  }
}
