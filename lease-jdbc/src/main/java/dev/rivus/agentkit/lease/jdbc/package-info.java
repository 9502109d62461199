/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A {@link dev.rivus.agentkit.lease.LeaseRepository} on a shared SQL database for processes on many
 * machines: {@link dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository}, configured by {@link
 * dev.rivus.agentkit.lease.jdbc.JdbcOptions}. See {@code docs/jdbc.md} for what it does and does not
 * do yet.
 */
@NullMarked
package dev.rivus.agentkit.lease.jdbc;

import org.jspecify.annotations.NullMarked;
