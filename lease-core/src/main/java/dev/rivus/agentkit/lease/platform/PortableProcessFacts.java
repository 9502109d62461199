/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;

/**
 * Facts for systems without {@code /proc}: the pid and host name are known, boot id and pid
 * namespace are not, so every other holder's liveness is {@link Liveness#UNKNOWN} and takeover
 * waits for the TTL.
 */
final class PortableProcessFacts implements ProcessFacts {

  private final ProcessIdentity self;

  PortableProcessFacts() {
    ProcessHandle current = ProcessHandle.current();
    String start = current.info().startInstant().map(instant -> "instant:" + instant).orElse(null);
    self = new ProcessIdentity(HostNames.current(), null, null, current.pid(), start);
  }

  @Override
  public ProcessIdentity currentProcess() {
    return self;
  }

  @Override
  public Liveness liveness(ProcessIdentity holder) {
    return Liveness.UNKNOWN;
  }
}
