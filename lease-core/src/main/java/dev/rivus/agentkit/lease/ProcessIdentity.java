/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who a process is, in the terms needed to judge from another process whether it is still running.
 *
 * <p>A field that could not be read is {@code null}, meaning "unknown": an observer that lacks a
 * fact never concludes that the process is gone, it waits for the TTL instead.
 *
 * @param host the host name, for people to read; liveness is judged by boot id and pid namespace
 * @param bootId the kernel's boot id ({@code /proc/sys/kernel/random/boot_id} on Linux), or {@code
 *     null}
 * @param pidNamespace the pid namespace ({@code /proc/self/ns/pid} on Linux), or {@code null}
 * @param pid the process id within its pid namespace
 * @param processStart when the process started, in a form that tells two processes with the same
 *     pid apart (clock ticks since boot on Linux), or {@code null}
 */
public record ProcessIdentity(
    String host,
    @Nullable String bootId,
    @Nullable String pidNamespace,
    long pid,
    @Nullable String processStart) {

  /**
   * Validates the components.
   *
   * @param host see the class description
   * @param bootId see the class description
   * @param pidNamespace see the class description
   * @param pid see the class description
   * @param processStart see the class description
   * @throws NullPointerException if the host is null
   * @throws IllegalArgumentException if the pid is not positive
   */
  public ProcessIdentity {
    Objects.requireNonNull(host, "host");
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive, was " + pid);
    }
  }

  /**
   * Tells whether this process and {@code other} see the same process table: same boot of the same
   * kernel and same pid namespace, both known.
   *
   * @param other the other process
   * @return {@code true} only when both facts are known and equal
   */
  public boolean sharesProcessTableWith(ProcessIdentity other) {
    return bootId != null
        && pidNamespace != null
        && bootId.equals(other.bootId)
        && pidNamespace.equals(other.pidNamespace);
  }

  @Override
  public String toString() {
    return host + " pid " + pid + (Objects.isNull(bootId) ? " (boot unknown)" : "");
  }
}
