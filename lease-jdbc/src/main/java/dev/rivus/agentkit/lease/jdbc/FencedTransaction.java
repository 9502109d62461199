/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Work of {@link JdbcLeaseRepository#inFencedTransaction(dev.rivus.agentkit.lease.Lease,
 * FencedTransaction)}: statements on a connection in a transaction that commits only while the
 * lease is still the holder's.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface FencedTransaction<T extends @Nullable Object> {

  /**
   * Runs the work's statements. Neither commit, roll back nor close the connection: the repository
   * does, after the work returns or throws.
   *
   * @param connection a connection of the repository's data source, auto-commit off
   * @return the result
   * @throws SQLException to roll back and fail
   */
  T run(Connection connection) throws SQLException;
}
