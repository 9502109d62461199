-- Copyright 2026 The Leases for Java authors
-- SPDX-License-Identifier: Apache-2.0

-- The lease tables of lease-jdbc, schema version 1, for PostgreSQL 9.5 or later.
-- JdbcLeaseRepository.open runs these statements when JdbcOptions.createIfMissing is set; a
-- migration tool (Flyway, Liquibase) can run them instead, with lease_records replaced by the
-- table name of JdbcOptions (lease_records_fence, the generation table, becomes that name followed
-- by _fence). The comments on the tables are how JdbcLeaseRepository.open tells its tables and
-- their version from other tables: keep them.

-- One row per key: the record of its lease. Every renewal writes a new version of its row; the
-- free half of each page (fillfactor) lets that version stay on the page (a HOT update), which
-- spares the primary key index an entry per renewal and halves the server's work for renewals.
CREATE TABLE IF NOT EXISTS lease_records (
  key_hash bytea PRIMARY KEY,
  lease_key bytea NOT NULL,
  generation bigint NOT NULL,
  revision bigint NOT NULL,
  state varchar(16) NOT NULL,
  holder_host text NOT NULL,
  holder_boot_id text,
  holder_pid_namespace text,
  holder_pid bigint NOT NULL,
  holder_process_start text,
  holder_handle_id text NOT NULL,
  ttl_nanos bigint NOT NULL,
  updated_at_seconds bigint NOT NULL,
  updated_at_nanos integer NOT NULL
) WITH (fillfactor = 50);
COMMENT ON TABLE lease_records IS 'lease-jdbc lease records, schema 1';

-- The generation table. One generation row per key: the generation of its last acquisition.
-- Fenced transactions hold a share lock on it, and acquisitions write it first, so an acquisition
-- waits for them; renewals never touch it, so they never wait for them.
CREATE TABLE IF NOT EXISTS lease_records_fence (
  key_hash bytea PRIMARY KEY,
  generation bigint NOT NULL
);
COMMENT ON TABLE lease_records_fence IS 'lease-jdbc fences, schema 1';
