/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases for Java on SQLite: the embedded default repository for processes on one machine.
 *
 * <p>Exports only {@code dev.rivus.agentkit.lease.sqlite}; its implementation classes are
 * package-private. Provides the {@code sqlite:PATH} store to {@code LeaseStores}.
 */
module dev.rivus.agentkit.lease.sqlite {
  requires transitive dev.rivus.agentkit.lease;
  requires static org.jspecify;
  requires java.sql;
  requires org.xerial.sqlitejdbc;

  exports dev.rivus.agentkit.lease.sqlite;

  provides dev.rivus.agentkit.lease.spi.LeaseStoreProvider with
      dev.rivus.agentkit.lease.sqlite.provider.SqliteStoreProvider;
}
