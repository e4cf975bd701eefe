-- compatible-from: 2
-- As migrations/sqlite/010: the erasure log (an erasure's time, and the address only as a keyed hash
-- under ENQUIRY_ERASURE_KEY; no personal data) and the time of each backup.
CREATE TABLE erasure_log (
  seq bigserial PRIMARY KEY,
  entry text NOT NULL UNIQUE,
  at timestamptz NOT NULL,
  key_id text,
  address_hash text
);
CREATE TABLE backups (
  seq bigserial PRIMARY KEY,
  made_at timestamptz NOT NULL
);
