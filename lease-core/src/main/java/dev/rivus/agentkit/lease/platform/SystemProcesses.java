/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.util.Objects;

/**
 * The facts of this operating system's processes: the identity of the current process, and a
 * judgement of other processes' liveness. On Linux both are read from {@code /proc} (host name,
 * boot id, pid namespace, pid and start time, so that a reused pid is not taken for its old owner);
 * elsewhere the identity holds the host name and pid, and every other process is {@link
 * Liveness#UNKNOWN}, so takeover waits for the TTL. Immutable and thread-safe.
 */
public final class SystemProcesses implements LivenessJudge {

  private final ProcessFacts facts;
  private final ProcessIdentity current;

  private SystemProcesses(ProcessFacts facts) {
    this.facts = facts;
    this.current = facts.currentProcess();
  }

  /**
   * Reads the facts of the running system. It reads a few small files, so it costs about a
   * millisecond: make it once and share it.
   *
   * @return the system's process facts
   */
  public static SystemProcesses detect() {
    return new SystemProcesses(ProcessFactsSelector.forThisSystem());
  }

  /**
   * Returns the identity of the current process, as written to the records of the leases it holds.
   *
   * @return this process
   */
  public ProcessIdentity currentProcess() {
    return current;
  }

  @Override
  public Liveness judge(ProcessIdentity holder) {
    return facts.liveness(Objects.requireNonNull(holder, "holder"));
  }

  @Override
  public String toString() {
    return "SystemProcesses[" + current + "]";
  }
}
