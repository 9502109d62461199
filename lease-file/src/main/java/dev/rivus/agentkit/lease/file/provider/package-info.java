/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The {@code dir:} store provider, found by {@link dev.rivus.agentkit.lease.spi.LeaseStores}. Not
 * exported: it is reached as a service only.
 */
@NullMarked
package dev.rivus.agentkit.lease.file.provider;

import org.jspecify.annotations.NullMarked;
