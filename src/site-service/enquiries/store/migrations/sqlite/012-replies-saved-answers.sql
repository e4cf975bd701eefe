-- compatible-from: 2
-- Additive for the code before it (new tables, nullable columns, a column with a default, the audit
-- made again with one more action): it runs on as before, and never claims a reply's outbox row.
-- Answering a visitor from the inbox: each reply, written with its outbox row in one transaction and
-- sent by the outbox's sender like every other mail. The outbox keeps one row per enquiry and
-- destination (002), so a reply's row is destination 'reply:<reply id>' of channel 'reply': the
-- sender claims, `retry` re-sends and `status` counts a channel's rows by coalesce(channel,
-- destination), which for every row before this is its destination. A reply's key is the page's
-- (one per draft): a second request with it finds the first, never a second mail. Replies go with
-- their enquiry (erasure, retention: ON DELETE CASCADE).
ALTER TABLE outbox ADD COLUMN channel TEXT;

CREATE TABLE replies (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  person_id INTEGER REFERENCES people (id),
  key TEXT NOT NULL,
  text TEXT NOT NULL,
  subject TEXT NOT NULL,
  at TEXT NOT NULL,
  UNIQUE (enquiry_id, key)
);

-- The company's saved answers (its own words, no visitor's), and each person's signature.
CREATE TABLE saved_answers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by INTEGER REFERENCES people (id)
);
ALTER TABLE people ADD COLUMN signature TEXT NOT NULL DEFAULT '';

-- The audit records each change of the saved answers too. SQLite cannot change a CHECK in place:
-- the table is made again, its rows kept (as 007 did).
CREATE TABLE audit_next (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  person_id INTEGER REFERENCES people (id),
  at TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('view', 'export', 'list', 'erase', 'saved-answer')),
  subject TEXT NOT NULL,
  operator_account TEXT
);
INSERT INTO audit_next (seq, person_id, at, action, subject, operator_account)
  SELECT seq, person_id, at, action, subject, operator_account FROM audit;
DROP TABLE audit;
ALTER TABLE audit_next RENAME TO audit;
CREATE INDEX audit_at ON audit (at);
