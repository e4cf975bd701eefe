-- compatible-from: 2
-- Additive (two new tables): the code before it runs on as before; its erasures are not logged.
-- The erasure log: one row per erasure (`enquiries erase`, the inbox's), written in the transaction
-- that erases, so that a backup put back forgets again whom erasure removed after the backup was
-- made (../erasure-log). It holds no personal data: the address only as a keyed hash
-- (HMAC-SHA256 under ENQUIRY_ERASURE_KEY), which the key's id names; both NULL when no key was set.
-- `entry` tells one erasure from another, so that a restore replays exactly those its backup lacks.
-- Kept when the enquiries go, and carried by every backup.
CREATE TABLE erasure_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entry TEXT NOT NULL UNIQUE,
  at TEXT NOT NULL,
  key_id TEXT,
  address_hash TEXT
);
-- One row per backup (`enquiries backup`), written just before its copy is taken: the newest row of
-- a backup is when that backup was made.
CREATE TABLE backups (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  made_at TEXT NOT NULL
);
