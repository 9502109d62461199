/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases for Java: one owner per task, with a fencing token that never goes backwards.
 *
 * <p>Exports the API ({@code dev.rivus.agentkit.lease}), the platform parts (ticker, scheduler,
 * process facts), the memory repository, and building blocks for adapter authors. The manager's
 * implementation stays internal. It needs nothing but the JDK: JSpecify's annotations are read at
 * compile time only.
 *
 * <p>Stores named by URI ({@code sqlite:PATH}, {@code dir:PATH}, {@code jdbc:...}) are opened
 * through {@code dev.rivus.agentkit.lease.spi.LeaseStores}, which finds the store modules' {@code
 * LeaseStoreProvider}s as services.
 */
module dev.rivus.agentkit.lease {
  requires static org.jspecify;

  exports dev.rivus.agentkit.lease;
  exports dev.rivus.agentkit.lease.platform;
  exports dev.rivus.agentkit.lease.memory;
  exports dev.rivus.agentkit.lease.support;
  exports dev.rivus.agentkit.lease.spi;

  uses dev.rivus.agentkit.lease.spi.LeaseStoreProvider;
}
