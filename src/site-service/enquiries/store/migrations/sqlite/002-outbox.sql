-- The outbox: one row per enquiry and destination, written in the transaction that stores the
-- enquiry; the sender claims due rows (claimed_until: a lease, so a sender that died mid-send is
-- retried after it) and records every attempt in outbox_attempts.
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  destination TEXT NOT NULL,
  -- Sent as webhook-id: the same on every retry, so the receiving end can drop a repeat.
  message_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('due', 'done', 'failed', 'stopped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at TEXT NOT NULL,
  claimed_until TEXT,
  UNIQUE (enquiry_id, destination)
);
CREATE INDEX outbox_due ON outbox (state, next_at);

-- A destination that answered 410 Gone, for the setting it had then (a hash of it): nothing more is
-- sent there until the setting changes.
CREATE TABLE stopped_destinations (
  destination TEXT NOT NULL,
  setting_hash TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (destination, setting_hash)
);

CREATE TABLE outbox_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  outbox_seq INTEGER NOT NULL REFERENCES outbox (seq) ON DELETE CASCADE,
  at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('done', 'failed', 'stopped')),
  detail TEXT
);
CREATE INDEX outbox_attempts_of ON outbox_attempts (outbox_seq);
