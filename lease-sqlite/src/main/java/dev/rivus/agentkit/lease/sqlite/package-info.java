/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The SQLite lease repository: start with {@link
 * dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository#open(java.nio.file.Path)}. All types are
 * null-hostile unless a parameter or return value is marked {@code @Nullable}. A null argument
 * where a value is required is reported as the JDK reports it: a {@code NullPointerException} whose
 * message is the parameter's name.
 */
@NullMarked
package dev.rivus.agentkit.lease.sqlite;

import org.jspecify.annotations.NullMarked;
