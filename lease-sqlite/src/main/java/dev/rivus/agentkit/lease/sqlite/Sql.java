package dev.rivus.agentkit.lease.sqlite;

/**
 * Every statement the repository runs after the schema exists. Keys and values are always bound
 * parameters; no SQL text is ever built from a key.
 */
enum Sql {
  BEGIN_IMMEDIATE("BEGIN IMMEDIATE"),
  COMMIT("COMMIT"),
  ROLLBACK("ROLLBACK"),
  SELECT_RECORD(
      "SELECT generation, revision, state, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle, updated_at_seconds, updated_at_nanos"
          + " FROM lease WHERE lease_key = ?"),
  SELECT_ALL(
      "SELECT generation, revision, state, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle, updated_at_seconds, updated_at_nanos,"
          + " lease_key FROM lease"),
  SELECT_FLOOR(
      "SELECT (SELECT value FROM lease_meta WHERE name = 'generation_floor'),"
          + " (SELECT value FROM lease_meta WHERE name = 'floor_raised_at_seconds')"),
  INSERT_RECORD(
      "INSERT INTO lease (generation, revision, state, holder_host, holder_boot_id,"
          + " holder_pid_namespace, holder_pid, holder_process_start, holder_handle,"
          + " updated_at_seconds, updated_at_nanos, lease_key)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
  UPDATE_RECORD(
      "UPDATE lease SET generation = ?, revision = ?, state = ?, holder_host = ?, holder_boot_id = ?,"
          + " holder_pid_namespace = ?, holder_pid = ?, holder_process_start = ?, holder_handle = ?,"
          + " updated_at_seconds = ?, updated_at_nanos = ? WHERE lease_key = ?"),
  SELECT_PRUNABLE(
      "SELECT count(*), max(generation) FROM lease WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2))"),
  DELETE_PRUNABLE(
      "DELETE FROM lease WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2))"),
  RAISE_FLOOR("UPDATE lease_meta SET value = max(value, ?) WHERE name = 'generation_floor'"),
  SET_FLOOR_TIME("UPDATE lease_meta SET value = ? WHERE name = 'floor_raised_at_seconds'");

  private final String text;

  Sql(String text) {
    this.text = text;
  }

  String text() {
    return text;
  }
}
