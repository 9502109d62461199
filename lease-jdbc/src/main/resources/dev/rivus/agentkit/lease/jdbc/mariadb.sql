-- Copyright 2026 The Leases for Java authors
-- SPDX-License-Identifier: Apache-2.0

-- The lease tables of lease-jdbc, schema version 1, for MariaDB 10.6 or later.
-- JdbcLeaseRepository.open runs these statements when JdbcOptions.createIfMissing is set; a
-- migration tool (Flyway, Liquibase) can run them instead, with lease_records replaced by the
-- table name of JdbcOptions (lease_records_fence, the generation table, becomes that name followed
-- by _fence). The comments on the tables are how JdbcLeaseRepository.open tells its tables and
-- their version from other tables: keep them.

-- One row per key: the record of its lease. The holder's strings are TEXT: they have no length
-- limit of their own, and a VARCHAR would reject or truncate a long one.
CREATE TABLE IF NOT EXISTS lease_records (
  key_hash BINARY(32) NOT NULL PRIMARY KEY,
  lease_key VARBINARY(4096) NOT NULL,
  generation BIGINT NOT NULL,
  revision BIGINT NOT NULL,
  state VARCHAR(16) NOT NULL,
  holder_host TEXT NOT NULL,
  holder_boot_id TEXT,
  holder_pid_namespace TEXT,
  holder_pid BIGINT NOT NULL,
  holder_process_start TEXT,
  holder_handle_id TEXT NOT NULL,
  ttl_nanos BIGINT NOT NULL,
  updated_at_seconds BIGINT NOT NULL,
  updated_at_nanos INT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
  COMMENT='lease-jdbc lease records, schema 1';

-- The generation table. One generation row per key: the generation of its last acquisition.
-- Fenced transactions hold a share lock on it, and acquisitions write it first, so an acquisition
-- waits for them; renewals never touch it, so they never wait for them.
CREATE TABLE IF NOT EXISTS lease_records_fence (
  key_hash BINARY(32) NOT NULL PRIMARY KEY,
  generation BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
  COMMENT='lease-jdbc fences, schema 1';
