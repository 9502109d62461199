/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Micrometer metrics for Leases for Java: {@link dev.rivus.agentkit.lease.micrometer.LeaseMetrics},
 * a listener of a lease manager that is also a Micrometer {@code MeterBinder}. Exports only {@code
 * dev.rivus.agentkit.lease.micrometer}.
 */
module dev.rivus.agentkit.lease.micrometer {
  requires transitive dev.rivus.agentkit.lease;
  // An automatic module: "requires transitive" would be linted; users of the binder need it anyway.
  requires micrometer.core;
  requires static org.jspecify;

  exports dev.rivus.agentkit.lease.micrometer;
}
