/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The {@code jdbc:} store provider, found by {@link dev.rivus.agentkit.lease.spi.LeaseStores}: the
 * URL's parsing and redaction, a pool per repository, and the messages that name the database
 * without secrets. Not exported: it is reached as a service only.
 */
@NullMarked
package dev.rivus.agentkit.lease.jdbc.provider;

import org.jspecify.annotations.NullMarked;
