/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.sql.SQLException;

/** PostgreSQL (9.5 or later, for {@code ON CONFLICT}). */
final class PostgresDialect implements Dialect {

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public String createTable(String table) {
    return "CREATE TABLE IF NOT EXISTS "
        + table
        + " ("
        + "key_hash bytea PRIMARY KEY, "
        + "lease_key bytea NOT NULL, "
        + "generation bigint NOT NULL, "
        + "revision bigint NOT NULL, "
        + "state varchar(16) NOT NULL, "
        + "holder_host text NOT NULL, "
        + "holder_boot_id text, "
        + "holder_pid_namespace text, "
        + "holder_pid bigint NOT NULL, "
        + "holder_process_start text, "
        + "holder_handle_id text NOT NULL, "
        + "ttl_nanos bigint NOT NULL, "
        + "updated_at_seconds bigint NOT NULL, "
        + "updated_at_nanos integer NOT NULL)";
  }

  @Override
  public String insertIfAbsent(String table) {
    return "INSERT INTO "
        + table
        + " ("
        + Sql.RECORD_COLUMNS
        + ", key_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        + " ON CONFLICT (key_hash) DO NOTHING";
  }

  /** Never: {@code ON CONFLICT DO NOTHING} writes no row rather than failing. */
  @Override
  public boolean isDuplicateKey(SQLException failure) {
    return false;
  }

  @Override
  public String tryLock() {
    return "SELECT pg_try_advisory_lock(?), pg_backend_pid()";
  }

  @Override
  public String unlock() {
    return "SELECT pg_advisory_unlock(?)";
  }

  @Override
  public boolean isUndefinedTable(SQLException failure) {
    return "42P01".equals(failure.getSQLState());
  }

  @Override
  public boolean isUndefinedColumn(SQLException failure) {
    return "42703".equals(failure.getSQLState());
  }
}
