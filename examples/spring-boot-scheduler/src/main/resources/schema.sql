-- One row per run of the report job: each two-second slot must appear once.
CREATE TABLE IF NOT EXISTS report_runs (
  slot BIGINT NOT NULL,
  instance TEXT NOT NULL,
  token BIGINT NOT NULL
);

-- The fenced table: rows in commit order carry tokens that never go backwards.
CREATE TABLE IF NOT EXISTS ledger (
  id BIGSERIAL PRIMARY KEY,
  token BIGINT NOT NULL,
  instance TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
