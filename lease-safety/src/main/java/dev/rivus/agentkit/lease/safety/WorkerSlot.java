/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import dev.rivus.agentkit.lease.testkit.ChildJvm;
import java.time.Duration;
import java.util.Map;

/**
 * One place for a worker JVM in a phase: it keeps its TTL across lives, and each life (first start,
 * respawn after a kill or a crash) gets its own id ({@code w<slot>.<life>}) and log.
 *
 * <p>Not thread-safe: the driver's fault loop owns it.
 */
final class WorkerSlot implements AutoCloseable {

  private final int slot;
  private final WorkerSettings template;
  private final JsonLines driverLog;
  private int life;
  private WorkerSettings current;
  private ChildJvm child;

  WorkerSlot(int slot, WorkerSettings template, JsonLines driverLog) {
    this.slot = slot;
    this.template = template;
    this.driverLog = driverLog;
    this.current = template;
    this.child = start();
  }

  private ChildJvm start() {
    life++;
    current =
        new WorkerSettings(
            "w" + slot + "." + life,
            template.store(),
            template.phaseDirectory(),
            template.port(),
            template.ttl(),
            template.heartbeat(),
            template.keys(),
            template.seed() * 31 + slot * 1000L + life,
            template.deadline());
    ChildJvm started = ChildJvm.builder(WorkerMain.class.getName()).args(current.toArgs()).start();
    Map<String, Object> line = fault("spawn");
    line.put("pid", started.pid());
    driverLog.write(line);
    return started;
  }

  /** Starts the next life, after the previous one was killed or died. */
  void respawn() {
    child.close();
    child = start();
  }

  String id() {
    return current.id();
  }

  Duration ttl() {
    return template.ttl();
  }

  ChildJvm child() {
    return child;
  }

  /** A driver log line about this slot's current life. */
  Map<String, Object> fault(String kind) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", current.id());
    return line;
  }

  void awaitReady(Duration timeout) throws InterruptedException {
    child.awaitLine("READY", timeout);
  }

  @Override
  public void close() {
    child.close();
  }
}
