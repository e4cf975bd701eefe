-- The enquiry's fields live in `data` (the stored line, JSON), so a field added to the definition
-- needs no migration; columns only for what the store looks up: the id, the time, the address for
-- erasure, the duplicate key and the screening's verdict.
CREATE TABLE enquiries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  received_at TEXT NOT NULL,
  email TEXT NOT NULL,
  duplicate_key TEXT NOT NULL,
  verdict TEXT,
  data TEXT NOT NULL
);
CREATE INDEX enquiries_duplicate ON enquiries (duplicate_key, received_at);
CREATE INDEX enquiries_email ON enquiries (email);
CREATE INDEX enquiries_received ON enquiries (received_at);

-- One row per delivery attempt; the unique key makes re-importing the same JSON-lines file a no-op.
CREATE TABLE deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed')),
  detail TEXT,
  UNIQUE (enquiry_id, at, outcome)
);

CREATE TABLE reviews (
  enquiry_id TEXT PRIMARY KEY REFERENCES enquiries (id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  review TEXT NOT NULL CHECK (review = 'not-spam')
);
