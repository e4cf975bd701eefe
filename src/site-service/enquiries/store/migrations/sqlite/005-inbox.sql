-- compatible-from: 2
-- Additive (new tables, a trigger): code of schema version 2 and later, which knows nothing of them,
-- still runs, and an enquiry it stores still gets its work row (the trigger).
-- The inbox: the people who may sign in, their passkeys, invitations and sessions; each
-- enquiry's work state, notes and history; the audit of who viewed or exported what. Secrets are
-- kept as SHA-256 hashes only (invitations' tokens, sessions' ids): a copy of the database signs
-- no one in. An enquiry's work, notes and history go with it (erasure, retention: ON DELETE CASCADE).
CREATE TABLE people (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE passkeys (
  credential_id TEXT PRIMARY KEY,
  person_id INTEGER NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX passkeys_person ON passkeys (person_id);

CREATE TABLE invitations (
  token_hash TEXT PRIMARY KEY,
  person_id INTEGER NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX invitations_person ON invitations (person_id);

CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  person_id INTEGER NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX sessions_person ON sessions (person_id);

-- A WebAuthn ceremony's challenge, from its options to its answer (whichever instance gets it):
-- used once, for minutes. A registration's names the invitation (its token's hash) it is for.
CREATE TABLE challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign-in')),
  token_hash TEXT,
  expires_at TEXT NOT NULL
);

CREATE TABLE enquiry_work (
  enquiry_id TEXT PRIMARY KEY REFERENCES enquiries (id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in progress', 'answered', 'closed', 'spam')),
  owner_id INTEGER REFERENCES people (id),
  version INTEGER NOT NULL DEFAULT 1,
  answered_at TEXT,
  -- Name, e-mail and message, lower-cased, for the inbox's search (goes with the enquiry).
  search_text TEXT NOT NULL DEFAULT ''
);
-- The inbox's list: newest first, paged by (received_at, seq).
CREATE INDEX enquiries_newest ON enquiries (received_at, seq);
CREATE INDEX enquiry_work_status ON enquiry_work (status);
CREATE INDEX enquiry_work_owner ON enquiry_work (owner_id);
CREATE INDEX enquiry_work_answered ON enquiry_work (answered_at) WHERE answered_at IS NOT NULL;

-- Every enquiry there is now is new, and every one stored later too, by whatever code stores it.
INSERT INTO enquiry_work (enquiry_id, status, version, search_text) SELECT e.id, 'new', 1, lower(coalesce(json_extract(e.data, '$.name'), '') || ' ' || coalesce(json_extract(e.data, '$.email'), '') || ' ' || coalesce(json_extract(e.data, '$.message'), '')) FROM enquiries e;
CREATE TRIGGER enquiry_work_new AFTER INSERT ON enquiries
BEGIN
  INSERT INTO enquiry_work (enquiry_id, status, version, search_text) VALUES (NEW.id, 'new', 1, lower(coalesce(json_extract(NEW.data, '$.name'), '') || ' ' || coalesce(json_extract(NEW.data, '$.email'), '') || ' ' || coalesce(json_extract(NEW.data, '$.message'), '')))
    ON CONFLICT DO NOTHING;
END;

CREATE TABLE notes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  person_id INTEGER REFERENCES people (id),
  at TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX notes_of ON notes (enquiry_id);

-- What changed, in words without the visitor's data ("status: new → in progress").
CREATE TABLE history (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  person_id INTEGER REFERENCES people (id),
  at TEXT NOT NULL,
  what TEXT NOT NULL
);
CREATE INDEX history_of ON history (enquiry_id);

-- Kept when the enquiry goes (the operator's record of access): it names an enquiry by its id or a
-- filter, never by the visitor's data.
CREATE TABLE audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  person_id INTEGER REFERENCES people (id),
  at TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('view', 'export')),
  subject TEXT NOT NULL
);
CREATE INDEX audit_at ON audit (at);
