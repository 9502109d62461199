/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.JsonLines;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The faults aimed at a {@code lease run} worker's {@code lease} process itself, while it holds its
 * lease: {@code run_kill} ({@code kill -9}; then {@code /proc} is searched for 5 s for a process of
 * the killed tree, {@code tree_gone} or {@code survivor} in the worker's log), {@code run_stop}
 * ({@code SIGSTOP} for 1.5 × the longest TTL, then {@code SIGCONT}) and {@code run_stderr} (its
 * stderr pipe left unread for a while: the pipeline's stderr and the CLI's own messages block once
 * it is full). Each goes to the driver's log, named by the run ({@code r<slot>.<run>}).
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class LeaseRunFaults {

  private final LeaseRunSlot slot;
  private final Random random;
  private final JsonLines log;
  private final JsonLines driverLog;

  LeaseRunFaults(LeaseRunSlot slot, Random random, JsonLines log, JsonLines driverLog) {
    this.slot = slot;
    this.random = random;
    this.log = log;
    this.driverLog = driverLog;
  }

  /** Returns whether it struck: not when no run was under way. */
  boolean kill() throws InterruptedException {
    LeaseRunProcess victim = slot.awaitHolder();
    if (victim == null) {
      return false;
    }
    Thread.sleep(random.nextInt(300)); // somewhere inside the section
    Map<String, Object> line = victim.fault("run_kill");
    line.put("pid", victim.pid());
    driverLog.write(line);
    victim.kill();
    awaitTreeGone(victim);
    return true;
  }

  /** P7's second half: no process of the killed tree may survive (searched in {@code /proc}). */
  private void awaitTreeGone(LeaseRunProcess victim) throws InterruptedException {
    long start = System.nanoTime();
    List<Long> left = ProcessTree.of(victim.pid());
    while (!left.isEmpty() && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5)) {
      Thread.sleep(20); // polling /proc
      left = ProcessTree.of(victim.pid());
    }
    Map<String, Object> line =
        LeaseRunProcess.event(victim.id(), left.isEmpty() ? "tree_gone" : "survivor", "", 0);
    line.put("ms", (System.nanoTime() - start) / 1_000_000);
    line.put("pids", left.toString());
    log.write(line);
  }

  /** Returns whether it struck: not when no run was under way. */
  boolean stop(Duration stopFor) throws InterruptedException {
    LeaseRunProcess victim = slot.awaitHolder();
    if (victim == null) {
      return false;
    }
    victim.signal("STOP");
    Map<String, Object> line = victim.fault("run_stop");
    line.put("pid", victim.pid());
    line.put("ms", stopFor.toMillis());
    driverLog.write(line);
    Thread.sleep(stopFor.toMillis()); // the fault itself
    victim.signal("CONT");
    driverLog.write(victim.fault("cont"));
    return true;
  }

  /** Returns whether it struck: not when no run was under way. */
  boolean blockStderr(Duration hold) throws InterruptedException {
    LeaseRunProcess victim = slot.awaitHolder();
    if (victim == null) {
      return false;
    }
    victim.blockStderr(true);
    Map<String, Object> line = victim.fault("run_stderr");
    line.put("ms", hold.toMillis());
    driverLog.write(line);
    try {
      Thread.sleep(hold.toMillis()); // the fault itself
    } finally {
      victim.blockStderr(false);
    }
    driverLog.write(victim.fault("cont"));
    return true;
  }
}
