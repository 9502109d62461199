/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.time.Duration;
import java.util.Map;

/**
 * One place for a worker JVM in a phase: it keeps its TTL across lives, and each life (first start,
 * respawn after a kill or a crash) gets its own id ({@code w<slot>.<life>}) and log.
 *
 * <p>Not thread-safe: the driver's fault loop owns it.
 */
public final class WorkerSlot implements AutoCloseable {

  private final int slot;
  private final WorkerSettings template;
  private final JsonLines driverLog;
  private int life;
  private WorkerSettings current;
  private ChildJvm child;

  /**
   * Starts the slot's first life.
   *
   * @param slot the slot's number, from 1
   * @param template the settings every life starts from (its id is the slot's, {@code w<slot>})
   * @param driverLog the driver's log, where each life's spawn goes
   */
  public WorkerSlot(int slot, WorkerSettings template, JsonLines driverLog) {
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
  public void respawn() {
    child.close();
    child = start();
  }

  /**
   * Returns the id of the current life.
   *
   * @return {@code w<slot>.<life>}
   */
  public String id() {
    return current.id();
  }

  /**
   * Returns the slot's lease TTL, the same in every life.
   *
   * @return the TTL
   */
  public Duration ttl() {
    return template.ttl();
  }

  /**
   * Returns the current life's JVM.
   *
   * @return the JVM, to signal, command or wait for
   */
  public ChildJvm child() {
    return child;
  }

  /**
   * Starts a driver log line about this slot's current life.
   *
   * @param kind the fault's name in the log ({@code kill}, {@code crash}, ...)
   * @return the line's fields, to add to and write
   */
  public Map<String, Object> fault(String kind) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", current.id());
    return line;
  }

  /**
   * Waits until the current life has built its manager (it says {@code READY}).
   *
   * @param timeout how long to wait
   * @throws InterruptedException if interrupted
   */
  public void awaitReady(Duration timeout) throws InterruptedException {
    child.awaitLine("READY", timeout);
  }

  @Override
  public void close() {
    child.close();
  }
}
