/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.spi.StoreRequest;

/**
 * The one door through which a command opens its lease store, whatever its kind: the product's is
 * {@link StandardRepositories}, on the installed store providers; tests give their own.
 */
@FunctionalInterface
interface Repositories {

  /**
   * Opens the store {@code request} names, creating it if the request allows.
   *
   * @param request the store's URI, whether it may be created, the busy wait, and the settings of
   *     the command line, with its spellings for messages
   * @return the open repository; the caller closes it
   * @throws dev.rivus.agentkit.lease.LeaseConfigInvalid if no store has the URI's scheme, or its
   *     store refuses the URI or a setting (a table name): a usage error
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if it cannot be reached, created or
   *     opened, is not a lease store, or does not exist and may not be created
   */
  LeaseRepository open(StoreRequest request);
}
