/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.spi.LeaseStores;
import dev.rivus.agentkit.lease.spi.StoreRequest;

/**
 * The repositories of the product: every store whose provider is installed beside the tool ({@code
 * sqlite:}, {@code dir:}, {@code jdbc:} in the release), found when the first is opened. The
 * providers load nothing of their stores until one is opened: a start on SQLite or files loads no
 * JDBC, pool or driver class (a test checks). Thread-safe: it keeps no state.
 */
final class StandardRepositories implements Repositories {

  @Override
  public LeaseRepository open(StoreRequest request) {
    return LeaseStores.installed().open(request);
  }
}
