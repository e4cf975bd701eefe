-- compatible-from: 2
-- As migrations/sqlite/012: replies from the inbox (each with its outbox row, channel 'reply'), the
-- saved answers, each person's signature, and the audit's action for the saved answers' changes.
-- Additive for the code before it.
ALTER TABLE outbox ADD COLUMN channel text;

CREATE TABLE replies (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  enquiry_id text NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  person_id bigint REFERENCES people (id),
  key text NOT NULL,
  text text NOT NULL,
  subject text NOT NULL,
  at timestamptz NOT NULL,
  UNIQUE (enquiry_id, key)
);

CREATE TABLE saved_answers (
  id bigserial PRIMARY KEY,
  title text NOT NULL,
  text text NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by bigint REFERENCES people (id)
);
ALTER TABLE people ADD COLUMN signature text NOT NULL DEFAULT '';

ALTER TABLE audit DROP CONSTRAINT audit_action_check;
ALTER TABLE audit ADD CONSTRAINT audit_action_check
  CHECK (action IN ('view', 'export', 'list', 'erase', 'saved-answer'));
