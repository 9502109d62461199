/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a phase's store lives, and the driver's log that its storage faults write to: the lines
 * every storage fault shares ({@code "fault": kind, "w": "store"}, and {@code "note"} lines).
 *
 * <p>Immutable; thread-safe (the log is).
 *
 * @param kind the phase's repository, {@code file} or {@code sqlite}
 * @param phaseDir the phase's directory (the workers' logs are there)
 * @param dir the store's directory, {@code <phase>/store}, perhaps a tmpfs
 * @param path the directory of records or the database file, inside {@code dir}
 * @param tmpfs whether {@code dir} is a tmpfs the driver mounted
 * @param log the driver's log
 */
record StoreSite(StoreKind kind, Path phaseDir, Path dir, Path path, boolean tmpfs, JsonLines log) {

  /** A driver log line of a storage fault of {@code kind}; the caller adds its fields. */
  Map<String, Object> fault(String kind) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", "store");
    return line;
  }

  /** A driver log line that is not a fault (a repair, a restart, a skip). */
  static Map<String, Object> note(String what) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("note", what);
    return line;
  }

  /** Writes a bare note. */
  void writeNote(String what) {
    log.write(note(what));
  }

  /** The log file of a worker's life. */
  Path workerLog(String id) {
    return phaseDir.resolve("worker-" + id + ".jsonl");
  }
}
