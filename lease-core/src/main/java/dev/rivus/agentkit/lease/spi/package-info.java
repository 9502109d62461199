/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Stores opened by URI: a {@link dev.rivus.agentkit.lease.spi.LeaseStoreProvider} per scheme
 * ({@code sqlite:PATH}, {@code dir:PATH}, {@code jdbc:...}), found with {@link
 * java.util.ServiceLoader} by {@link dev.rivus.agentkit.lease.spi.LeaseStores}, and the {@link
 * dev.rivus.agentkit.lease.spi.StoreRequest} a caller opens one with. A tool that lets its user
 * name any store (the {@code lease} command, the safety harness) opens it here; an application
 * that knows its store opens the adapter's repository directly. See {@code docs/adapters.md}.
 */
@NullMarked
package dev.rivus.agentkit.lease.spi;

import org.jspecify.annotations.NullMarked;
