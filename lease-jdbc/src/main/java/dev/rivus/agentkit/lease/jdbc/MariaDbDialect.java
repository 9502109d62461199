/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.sql.SQLException;

/**
 * MariaDB (10.6 or later; tested on 10.11), also chosen for a database that calls itself MySQL
 * (untested). The table is InnoDB; the key's hash is {@code BINARY(32)}, the key {@code
 * VARBINARY(4096)} (a key of 1024 characters takes at most 3072 bytes), the holder's strings {@code
 * TEXT} in {@code utf8mb4} (no length of their own to truncate at).
 *
 * <p>A write expecting no record is a plain {@code INSERT}; a duplicate key (error 1062) is the
 * conflict. Neither {@code INSERT IGNORE} (which would hide other errors as well) nor {@code ON
 * DUPLICATE KEY UPDATE} (whose row count depends on the driver's found-rows setting) is used. The
 * updates always change {@code revision}, so "found" and "changed" rows are the same count.
 *
 * <p>The key lock is a named user lock ({@code GET_LOCK(name, 0)}, polled), which belongs to the
 * session and is released when it ends. User lock names are global to the server, so the name is
 * {@code lease_} and 40 hex digits of the SHA-256 of the current database's name and the 64-bit
 * lock id (which already covers the table and the key): 46 characters, within the limit of 64.
 */
final class MariaDbDialect implements Dialect {

  /** The name of the user lock of the bound 64-bit id, in the connection's current database. */
  private static final String LOCK_NAME =
      "CONCAT('lease_', LEFT(SHA2(CONCAT_WS('/', DATABASE(), ?), 256), 40))";

  private final String name;

  MariaDbDialect(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String createTable(String table) {
    return "CREATE TABLE IF NOT EXISTS "
        + table
        + " ("
        + "key_hash BINARY(32) NOT NULL PRIMARY KEY, "
        + "lease_key VARBINARY(4096) NOT NULL, "
        + "generation BIGINT NOT NULL, "
        + "revision BIGINT NOT NULL, "
        + "state VARCHAR(16) NOT NULL, "
        + "holder_host TEXT NOT NULL, "
        + "holder_boot_id TEXT, "
        + "holder_pid_namespace TEXT, "
        + "holder_pid BIGINT NOT NULL, "
        + "holder_process_start TEXT, "
        + "holder_handle_id TEXT NOT NULL, "
        + "ttl_nanos BIGINT NOT NULL, "
        + "updated_at_seconds BIGINT NOT NULL, "
        + "updated_at_nanos INT NOT NULL)"
        + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
  }

  @Override
  public String insertIfAbsent(String table) {
    return "INSERT INTO "
        + table
        + " ("
        + Sql.RECORD_COLUMNS
        + ", key_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  }

  /** ER_DUP_ENTRY (1062), SQLState 23000. */
  @Override
  public boolean isDuplicateKey(SQLException failure) {
    return failure.getErrorCode() == 1062 && "23000".equals(failure.getSQLState());
  }

  @Override
  public String tryLock() {
    return "SELECT GET_LOCK(" + LOCK_NAME + ", 0), CONNECTION_ID()";
  }

  @Override
  public String unlock() {
    return "SELECT RELEASE_LOCK(" + LOCK_NAME + ")";
  }

  /** ER_NO_SUCH_TABLE (1146), SQLState 42S02. */
  @Override
  public boolean isUndefinedTable(SQLException failure) {
    return failure.getErrorCode() == 1146 || "42S02".equals(failure.getSQLState());
  }

  /** ER_BAD_FIELD_ERROR (1054), SQLState 42S22. */
  @Override
  public boolean isUndefinedColumn(SQLException failure) {
    return failure.getErrorCode() == 1054 || "42S22".equals(failure.getSQLState());
  }
}
