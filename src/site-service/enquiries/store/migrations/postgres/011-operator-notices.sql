-- compatible-from: 2
-- As migrations/sqlite/011: the operator's notices, kept until sent (leased, fenced by a token,
-- retried on the outbox's schedule), and every attempt; nothing of any visitor's.
CREATE TABLE operator_notices (
  seq bigserial PRIMARY KEY,
  digest text NOT NULL,
  subject text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL,
  state text NOT NULL CHECK (state IN ('due', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL,
  claimed_until timestamptz,
  claim_token text,
  sent_at timestamptz
);
CREATE INDEX operator_notices_due ON operator_notices (state, next_at);
CREATE INDEX operator_notices_digest ON operator_notices (digest);

CREATE TABLE operator_notice_attempts (
  seq bigserial PRIMARY KEY,
  notice_seq bigint NOT NULL REFERENCES operator_notices (seq) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('done', 'failed')),
  detail text
);
CREATE INDEX operator_notice_attempts_of ON operator_notice_attempts (notice_seq);
