/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;

/** Where the system platform gets process identity and liveness from, per operating system. */
interface ProcessFacts {

  /** The identity of the current process. */
  ProcessIdentity currentProcess();

  /** Whether {@code holder} still runs, as far as this process can tell. */
  Liveness liveness(ProcessIdentity holder);
}
