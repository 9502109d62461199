/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases for Java on a shared SQL database, through any {@link javax.sql.DataSource}: PostgreSQL
 * and MariaDB (a database whose driver calls it MySQL gets the MariaDB dialect, untested).
 *
 * <p>Exports only {@code dev.rivus.agentkit.lease.jdbc}; its implementation classes are
 * package-private. The application brings the JDBC driver and, usually, a connection pool. Provides
 * the {@code jdbc:} store to {@code LeaseStores}, which opens a URL on a HikariCP pool of its own
 * (HikariCP is then needed beside this module).
 */
module dev.rivus.agentkit.lease.jdbc {
  requires transitive dev.rivus.agentkit.lease;
  requires transitive java.sql;
  requires static org.jspecify;
  // For the jdbc: store provider's pools only; an application brings its own DataSource.
  requires static com.zaxxer.hikari;
  // For PostgreSQL's notices of releases only; the application brings the driver.
  requires static org.postgresql.jdbc;

  exports dev.rivus.agentkit.lease.jdbc;

  provides dev.rivus.agentkit.lease.spi.LeaseStoreProvider with
      dev.rivus.agentkit.lease.jdbc.provider.JdbcStoreProvider;
}
