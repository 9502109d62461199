/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The repositories under attack and how every process reaches them: the kinds of store and where a
 * phase keeps each ({@link StoreKind}), the negative control's broken repository; on a database,
 * the server ({@link Database}), the phase's tables and proxies ({@link DatabasePhase}), a worker's
 * pooled repository ({@link JdbcStore}) and its fenced transactions on the side table ({@link
 * SideTransactions}).
 */
@NullMarked
package dev.rivus.agentkit.lease.safety.store;

import org.jspecify.annotations.NullMarked;
