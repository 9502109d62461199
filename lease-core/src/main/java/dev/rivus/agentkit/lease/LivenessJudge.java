/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

/**
 * Judges whether the process named in a lease record still runs. A lease held by a process judged
 * {@link Liveness#GONE} is taken over at once; one judged {@link Liveness#ALIVE} or {@link
 * Liveness#UNKNOWN} only after its TTL has passed with the record unchanged.
 *
 * <p>The default judge reads this machine's process table ({@code /proc} on Linux) and says {@code
 * UNKNOWN} for anything it cannot see. Give a manager another judge to judge holders another way,
 * for example by the state of a Kubernetes pod named in {@link ProcessIdentity#host()}; or {@link
 * #unknown()} to take over after the TTL only. A judge must say {@code GONE} only when it is sure:
 * a wrong {@code GONE} hands a live holder's lease to another. It is called on the thread that
 * acquires, so it should answer quickly; implementations are thread-safe.
 */
@FunctionalInterface
public interface LivenessJudge {

  /**
   * Returns a judge that can tell nothing: every holder is {@link Liveness#UNKNOWN}, so takeover
   * waits for the TTL.
   *
   * @return the judge that always says unknown
   */
  static LivenessJudge unknown() {
    return holder -> Liveness.UNKNOWN;
  }

  /**
   * Judges whether {@code holder} still runs. Anything the judge cannot tell is {@link
   * Liveness#UNKNOWN}, never {@link Liveness#GONE}.
   *
   * @param holder the process named by a lease record
   * @return alive, gone (or its pid reused), or unknown
   */
  Liveness judge(ProcessIdentity holder);
}
