/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import java.nio.file.Path;

/**
 * Opens the SQLite repository whose spec is the database file's path, in the test JVM or a child.
 */
public final class SqliteRepositoryFactory implements RepositoryFactory {

  /** For {@link RepositoryFactory#byClassName(String)}. */
  public SqliteRepositoryFactory() {}

  @Override
  public LeaseRepository open(String spec) {
    return SqliteLeaseRepository.open(Path.of(spec));
  }
}
