package dev.rivus.agentkit.lease.sqlite;

/**
 * Every statement the repository runs after the schema exists. Keys and values are always bound
 * parameters; no SQL text is ever built from a key.
 *
 * <p>The three writes compare inside the statement, so a save is one statement in the common case
 * and a batch of them needs no read per row. Their parameters are numbered, so a condition reuses a
 * value already bound for the new row instead of binding it twice (each bind is a native call).
 */
enum Sql {
  BEGIN_IMMEDIATE("BEGIN IMMEDIATE"),
  COMMIT("COMMIT"),
  ROLLBACK("ROLLBACK"),
  SELECT_RECORD(
      "SELECT generation, revision, state, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle, updated_at_seconds, updated_at_nanos,"
          + " holder_ttl_nanos, ttl_revision FROM lease WHERE lease_key = ?"),
  SELECT_ALL(
      "SELECT generation, revision, state, holder_host, holder_boot_id, holder_pid_namespace,"
          + " holder_pid, holder_process_start, holder_handle, updated_at_seconds, updated_at_nanos,"
          + " holder_ttl_nanos, ttl_revision, lease_key FROM lease"),
  SELECT_REVISION("SELECT revision FROM lease WHERE lease_key = ?"),
  SELECT_FLOOR(
      "SELECT (SELECT value FROM lease_meta WHERE name = 'generation_floor'),"
          + " (SELECT value FROM lease_meta WHERE name = 'revision_floor'),"
          + " (SELECT value FROM lease_meta WHERE name = 'floor_raised_at_seconds')"),

  /**
   * A whole record over the expected revision: parameters {@code ?1}–{@code ?12} are the record
   * (see {@link Rows#bindRecord}), {@code ?13} the key, {@code ?14} the expected revision.
   *
   * <p>Besides the revision, the stored record must have a lower generation (an acquisition) or the
   * same generation under the same holder (a release). Revisions never repeat for a key, so a
   * writer of this release never trips this check; it stops a writer whose read predates a pruning
   * if a process of schema version 1, still running on a migrated file, created the key's new
   * record from revision 1 again.
   */
  WRITE_RECORD(
      "UPDATE lease SET generation = ?1, revision = ?2, state = ?3, holder_host = ?4,"
          + " holder_boot_id = ?5, holder_pid_namespace = ?6, holder_pid = ?7,"
          + " holder_process_start = ?8, holder_handle = ?9, updated_at_seconds = ?10,"
          + " updated_at_nanos = ?11, holder_ttl_nanos = ?12, ttl_revision = ?2"
          + " WHERE lease_key = ?13 AND revision = ?14"
          + " AND (generation < ?1 OR (generation = ?1 AND holder_handle = ?9"
          + " AND holder_host = ?4 AND holder_boot_id IS ?5 AND holder_pid_namespace IS ?6"
          + " AND holder_pid = ?7 AND holder_process_start IS ?8))"),

  /**
   * A renewal: the holder, generation, state and TTL stay (a renewal never changes them), so only
   * the revision and time are written, and the TTL stays valid for the new revision if it was for
   * the old one; 6 values bound instead of 14, which is most of a batch's cost. The generation and
   * state are compared, for the same reason as in {@link #WRITE_RECORD}: a generation is never
   * handed out twice for a key, so it names the holder.
   */
  RENEW_RECORD(
      "UPDATE lease SET revision = ?1,"
          + " ttl_revision = CASE WHEN ttl_revision = revision THEN ?1 ELSE ttl_revision END,"
          + " updated_at_seconds = ?2, updated_at_nanos = ?3"
          + " WHERE lease_key = ?4 AND revision = ?5 AND generation = ?6 AND state = 'HELD'"),

  /**
   * A record for a key that has none, with the parameters of {@link #WRITE_RECORD}: inserted only
   * if the expected revision is the floor's (0 when nothing was ever pruned) and the generation is
   * above the generation floor.
   */
  INSERT_RECORD(
      "INSERT INTO lease (generation, revision, state, holder_host, holder_boot_id,"
          + " holder_pid_namespace, holder_pid, holder_process_start, holder_handle,"
          + " updated_at_seconds, updated_at_nanos, holder_ttl_nanos, ttl_revision, lease_key)"
          + " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?2, ?13"
          + " FROM lease_meta g, lease_meta r"
          + " WHERE g.name = 'generation_floor' AND r.name = 'revision_floor' AND ?1 > g.value"
          + " AND ?14 = CASE WHEN g.value > 0 OR r.value > 0 THEN max(r.value, 1) ELSE 0 END"
          + " ON CONFLICT (lease_key) DO NOTHING"),
  SELECT_PRUNABLE(
      "SELECT count(*), max(generation), max(revision) FROM lease WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2))"),
  DELETE_PRUNABLE(
      "DELETE FROM lease WHERE state = 'RELEASED'"
          + " AND (updated_at_seconds < ?1 OR (updated_at_seconds = ?1 AND updated_at_nanos <= ?2))"),
  RAISE_FLOORS(
      "UPDATE lease_meta SET value = max(value,"
          + " CASE name WHEN 'generation_floor' THEN ?1 ELSE ?2 END)"
          + " WHERE name IN ('generation_floor', 'revision_floor')"),
  SET_FLOOR_TIME("UPDATE lease_meta SET value = ? WHERE name = 'floor_raised_at_seconds'");

  private final String text;

  Sql(String text) {
    this.text = text;
  }

  String text() {
    return text;
  }
}
