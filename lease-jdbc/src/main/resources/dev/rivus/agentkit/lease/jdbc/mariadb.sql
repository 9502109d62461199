-- Copyright 2026 The Leases for Java authors
-- SPDX-License-Identifier: Apache-2.0

-- The lease tables of lease-jdbc, schema version 1, for MariaDB 10.6 or later, and the procedure
-- that acquisitions call. JdbcLeaseRepository.open runs these statements when
-- JdbcOptions.createIfMissing is set; a migration tool (Flyway, or the mariadb client) can run them
-- instead, with lease_records replaced by the table name of JdbcOptions (lease_records_fence, the
-- generation table, becomes that name followed by _fence, and lease_records_acq, the procedure,
-- that name followed by _acq). The comments on the tables and the procedure are how
-- JdbcLeaseRepository.open tells them and their version from others: keep them.

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

-- The acquisition procedure (optional: without it, or without the EXECUTE privilege on it, an
-- acquisition sends these statements one by one, in four round trips instead of one). One
-- transaction: the generation row is raised first (waiting at most 1 s for the share locks of
-- fenced transactions), then the record is inserted or conditionally updated; it commits if the
-- record row was written and rolls back otherwise. A duplicate key, a deadlock or a lock wait past
-- the bound is a conflict: rolled back, 0. Any other error rolls back and is raised to the caller.
-- SQL SECURITY INVOKER: it runs with the caller's own rights on the tables. The sql_mode is set
-- for it, so that a value too long for its parameter is an error, whatever the session's mode.
DELIMITER //
SET STATEMENT sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION' FOR
CREATE PROCEDURE IF NOT EXISTS lease_records_acq(
  IN p_key_hash BINARY(32),
  IN p_lease_key VARBINARY(4096),
  IN p_generation BIGINT,
  IN p_revision BIGINT,
  IN p_state VARCHAR(16) CHARACTER SET utf8mb4,
  IN p_holder_host TEXT CHARACTER SET utf8mb4,
  IN p_holder_boot_id TEXT CHARACTER SET utf8mb4,
  IN p_holder_pid_namespace TEXT CHARACTER SET utf8mb4,
  IN p_holder_pid BIGINT,
  IN p_holder_process_start TEXT CHARACTER SET utf8mb4,
  IN p_holder_handle_id TEXT CHARACTER SET utf8mb4,
  IN p_ttl_nanos BIGINT,
  IN p_updated_at_seconds BIGINT,
  IN p_updated_at_nanos INT,
  IN p_expected_revision BIGINT)
  MODIFIES SQL DATA
  SQL SECURITY INVOKER
  COMMENT 'lease-jdbc acquisition, schema 1'
BEGIN
  DECLARE written INT DEFAULT 0;
  DECLARE EXIT HANDLER FOR 1062, 1205, 1213
  BEGIN
    ROLLBACK;
    SELECT 0;
  END;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  SET STATEMENT innodb_lock_wait_timeout = 1 FOR
    INSERT INTO lease_records_fence (key_hash, generation) VALUES (p_key_hash, p_generation)
    ON DUPLICATE KEY UPDATE generation = VALUES(generation);
  IF p_expected_revision = 0 THEN
    INSERT INTO lease_records (lease_key, generation, revision, state, holder_host,
        holder_boot_id, holder_pid_namespace, holder_pid, holder_process_start, holder_handle_id,
        ttl_nanos, updated_at_seconds, updated_at_nanos, key_hash)
      VALUES (p_lease_key, p_generation, p_revision, p_state, p_holder_host, p_holder_boot_id,
        p_holder_pid_namespace, p_holder_pid, p_holder_process_start, p_holder_handle_id,
        p_ttl_nanos, p_updated_at_seconds, p_updated_at_nanos, p_key_hash);
    SET written = ROW_COUNT();
  ELSE
    UPDATE lease_records SET generation = p_generation, revision = p_revision, state = p_state,
        holder_host = p_holder_host, holder_boot_id = p_holder_boot_id,
        holder_pid_namespace = p_holder_pid_namespace, holder_pid = p_holder_pid,
        holder_process_start = p_holder_process_start, holder_handle_id = p_holder_handle_id,
        ttl_nanos = p_ttl_nanos, updated_at_seconds = p_updated_at_seconds,
        updated_at_nanos = p_updated_at_nanos
      WHERE key_hash = p_key_hash AND revision = p_expected_revision
        AND generation < p_generation;
    SET written = ROW_COUNT();
  END IF;
  IF written = 1 THEN
    COMMIT;
  ELSE
    ROLLBACK;
  END IF;
  SELECT written;
END//
DELIMITER ;
