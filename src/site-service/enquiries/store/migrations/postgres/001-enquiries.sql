-- As migrations/sqlite/001: the fields in `data`, columns only for what the store looks up. `json`
-- (not jsonb) keeps the stored line's key order: the definition's order, its version first.
CREATE TABLE enquiries (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  received_at timestamptz NOT NULL,
  email text NOT NULL,
  duplicate_key text NOT NULL,
  verdict text,
  data json NOT NULL
);
CREATE INDEX enquiries_duplicate ON enquiries (duplicate_key, received_at);
CREATE INDEX enquiries_email ON enquiries (email);
CREATE INDEX enquiries_received ON enquiries (received_at);

CREATE TABLE deliveries (
  seq bigserial PRIMARY KEY,
  enquiry_id text NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
  detail text,
  UNIQUE (enquiry_id, at, outcome)
);

CREATE TABLE reviews (
  enquiry_id text PRIMARY KEY REFERENCES enquiries (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  review text NOT NULL CHECK (review = 'not-spam')
);
