-- compatible-from: 2
-- Additive (two new tables): the code before it runs on as before; its notices are sent at once or lost.
-- The operator's notices (`enquiries notify-operator`: deploy/server/doctor's lines when it finds a
-- problem), kept until sent as the outbox keeps a delivery (../operator-notice-store): stored first,
-- then claimed under a lease and a token (claimed_until, claim_token), retried on the outbox's
-- schedule, every attempt in operator_notice_attempts. They hold nothing of any visitor's. `digest`
-- (SHA-256 of the subject and the text) finds the same notice still due, so that it is not stored,
-- nor sent, twice. Sent ones are removed after a while, as the next notice is stored.
CREATE TABLE operator_notices (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  digest TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('due', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at TEXT NOT NULL,
  claimed_until TEXT,
  claim_token TEXT,
  sent_at TEXT
);
CREATE INDEX operator_notices_due ON operator_notices (state, next_at);
CREATE INDEX operator_notices_digest ON operator_notices (digest);

CREATE TABLE operator_notice_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  notice_seq INTEGER NOT NULL REFERENCES operator_notices (seq) ON DELETE CASCADE,
  at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('done', 'failed')),
  detail TEXT
);
CREATE INDEX operator_notice_attempts_of ON operator_notice_attempts (notice_seq);
