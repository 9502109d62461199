/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;

/** A repository that forwards to a memory repository; broken variants override one operation. */
class ForwardingRepository extends ForwardingLeaseRepository {

  ForwardingRepository() {
    super(new MemoryLeaseRepository());
  }
}
