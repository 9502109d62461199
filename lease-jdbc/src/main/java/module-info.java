/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases for Java on a shared SQL database, through any {@link javax.sql.DataSource}: PostgreSQL
 * now, MariaDB planned.
 *
 * <p>Exports only {@code dev.rivus.agentkit.lease.jdbc}; its implementation classes are
 * package-private. The application brings the JDBC driver and, usually, a connection pool.
 */
module dev.rivus.agentkit.lease.jdbc {
  requires transitive dev.rivus.agentkit.lease;
  requires transitive java.sql;
  requires static org.jspecify;

  exports dev.rivus.agentkit.lease.jdbc;
}
