-- As migrations/sqlite/002: the outbox, every attempt, the destinations that answered 410.
CREATE TABLE outbox (
  seq bigserial PRIMARY KEY,
  enquiry_id text NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  destination text NOT NULL,
  message_id text NOT NULL,
  state text NOT NULL CHECK (state IN ('due', 'done', 'failed', 'stopped')),
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL,
  claimed_until timestamptz,
  UNIQUE (enquiry_id, destination)
);
CREATE INDEX outbox_due ON outbox (state, next_at);

CREATE TABLE stopped_destinations (
  destination text NOT NULL,
  setting_hash text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (destination, setting_hash)
);

CREATE TABLE outbox_attempts (
  seq bigserial PRIMARY KEY,
  outbox_seq bigint NOT NULL REFERENCES outbox (seq) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('done', 'failed', 'stopped')),
  detail text
);
CREATE INDEX outbox_attempts_of ON outbox_attempts (outbox_seq);
