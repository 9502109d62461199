#!/usr/bin/env bash
# The PostgreSQL server's CPU for renewing 100,000 leases: the cheapest key-based UPDATE of 100,000
# rows (the floor) beside the statement of our renewals (UPDATE ... FROM unnest, with the
# compare-and-set on revision and generation), each as 10 statements of 10,000 rows, on a table of
# the record table's shape (fillfactor 50). Prints the backend's CPU (utime + stime from /proc) per
# 100,000 rows, over 30 statements after 10 of warm-up. Run on the server's machine, as a user that
# can read the backend's /proc entry:
#   lease-bench/scripts/pg-renewal-floor.sh [psql connection options, default -h 127.0.0.1 -U root test]
set -euo pipefail
connection=("$@")
[ ${#connection[@]} -gt 0 ] || connection=(-h 127.0.0.1 -U root test)
table="renewal_floor_$$"
psql -q -X "${connection[@]}" <<SQL
CREATE TABLE $table (
  key_hash bytea PRIMARY KEY, lease_key bytea NOT NULL, generation bigint NOT NULL,
  revision bigint NOT NULL, state varchar(16) NOT NULL, holder_host text NOT NULL,
  holder_boot_id text, holder_pid_namespace text, holder_pid bigint NOT NULL,
  holder_process_start text, holder_handle_id text NOT NULL, ttl_nanos bigint NOT NULL,
  updated_at_seconds bigint NOT NULL, updated_at_nanos integer NOT NULL) WITH (fillfactor = 50);
INSERT INTO $table SELECT sha256(i::text::bytea), ('key-' || i)::bytea, 1, 1, 'HELD', 'host-a',
  'boot-1234567890', 'pid:[4026531836]', 12345, '123456789', 'handle-' || i, 6000000000,
  1700000000, 0 FROM generate_series(1, 100000) i;
VACUUM ANALYZE $table;
SQL
trap 'psql -q -X "${connection[@]}" -c "DROP TABLE IF EXISTS $table"' EXIT

measure() { # name, statement to execute (the prepared statements below)
  coproc PSQL { psql -q -X -At "${connection[@]}" 2>&1; }
  echo "SELECT pg_backend_pid();" >&"${PSQL[1]}"
  read -r pid <&"${PSQL[0]}"
  cat >&"${PSQL[1]}" <<SQL
SET plan_cache_mode = force_generic_plan;
SELECT array_agg(sha256(i::text::bytea))::text AS k, array_fill(1::bigint, ARRAY[10000])::text AS o,
  array_fill(0, ARRAY[10000])::text AS z FROM generate_series(1, 10000) i \gset
PREPARE floor(bytea[]) AS UPDATE $table SET updated_at_nanos = updated_at_nanos + 1
  WHERE key_hash = ANY(\$1);
PREPARE ours(bytea[], bigint[], bigint[], bigint[], bigint[], integer[]) AS UPDATE $table t
  SET revision = v.revision, updated_at_seconds = v.updated_at_seconds,
  updated_at_nanos = v.updated_at_nanos + t.updated_at_nanos
  FROM unnest(\$1, \$2, \$3, \$4, \$5, \$6) AS v(key_hash, expected, generation, revision,
  updated_at_seconds, updated_at_nanos)
  WHERE t.key_hash = v.key_hash AND t.revision = v.expected AND t.generation = v.generation
  RETURNING t.key_hash;
\o /dev/null
SQL
  sync_point() { echo "\\o" >&"${PSQL[1]}"; echo "SELECT '$1';" >&"${PSQL[1]}"; echo "\\o /dev/null" >&"${PSQL[1]}";
    while read -r line <&"${PSQL[0]}"; do [ "$line" = "$1" ] && break; done; }
  for _ in $(seq 10); do echo "$2" >&"${PSQL[1]}"; done
  sync_point warm
  local before after
  before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  for _ in $(seq 30); do echo "$2" >&"${PSQL[1]}"; done
  sync_point done
  after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  echo '\q' >&"${PSQL[1]}"
  wait "$PSQL_PID" 2>/dev/null || true
  local hz; hz=$(getconf CLK_TCK)
  # 30 statements of 10,000 rows are 3 × 100,000 rows
  echo "$1: $(( (after - before) * 1000 / hz / 3 )) ms of backend CPU per 100,000 rows"
}
measure floor "EXECUTE floor(:'k');"
measure ours "EXECUTE ours(:'k', :'o', :'o', :'o', :'o', :'z');"
