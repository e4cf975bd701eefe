-- compatible-from: 2
-- As migrations/sqlite/005: the inbox's people, passkeys, invitations and sessions (secrets as
-- SHA-256 hashes only), each enquiry's work state, notes and history, and the audit.
CREATE TABLE people (
  id bigserial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE passkeys (
  credential_id text PRIMARY KEY,
  person_id bigint NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_person ON passkeys (person_id);

CREATE TABLE invitations (
  token_hash text PRIMARY KEY,
  person_id bigint NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX invitations_person ON invitations (person_id);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  person_id bigint NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX sessions_person ON sessions (person_id);

-- A WebAuthn ceremony's challenge, from its options to its answer (whichever instance gets it):
-- used once, for minutes. A registration's names the invitation (its token's hash) it is for.
CREATE TABLE challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'sign-in')),
  token_hash text,
  expires_at timestamptz NOT NULL
);

CREATE TABLE enquiry_work (
  enquiry_id text PRIMARY KEY REFERENCES enquiries (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in progress', 'answered', 'closed', 'spam')),
  owner_id bigint REFERENCES people (id),
  version integer NOT NULL DEFAULT 1,
  answered_at timestamptz,
  -- Name, e-mail and message, lower-cased, for the inbox's search (goes with the enquiry).
  search_text text NOT NULL DEFAULT ''
);
-- The inbox's list: newest first, paged by (received_at, seq).
CREATE INDEX enquiries_newest ON enquiries (received_at, seq);
CREATE INDEX enquiry_work_status ON enquiry_work (status);
CREATE INDEX enquiry_work_owner ON enquiry_work (owner_id);
CREATE INDEX enquiry_work_answered ON enquiry_work (answered_at) WHERE answered_at IS NOT NULL;

-- Every enquiry there is now is new, and every one stored later too, by whatever code stores it.
INSERT INTO enquiry_work (enquiry_id, status, version, search_text) SELECT e.id, 'new', 1, lower(coalesce((e.data ->> 'name'), '') || ' ' || coalesce((e.data ->> 'email'), '') || ' ' || coalesce((e.data ->> 'message'), '')) FROM enquiries e;
CREATE FUNCTION enquiry_work_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO enquiry_work (enquiry_id, status, version, search_text) VALUES (NEW.id, 'new', 1, lower(coalesce((NEW.data ->> 'name'), '') || ' ' || coalesce((NEW.data ->> 'email'), '') || ' ' || coalesce((NEW.data ->> 'message'), '')))
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE TRIGGER enquiry_work_new AFTER INSERT ON enquiries FOR EACH ROW EXECUTE FUNCTION enquiry_work_new();

CREATE TABLE notes (
  seq bigserial PRIMARY KEY,
  enquiry_id text NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  person_id bigint REFERENCES people (id),
  at timestamptz NOT NULL,
  text text NOT NULL
);
CREATE INDEX notes_of ON notes (enquiry_id);

CREATE TABLE history (
  seq bigserial PRIMARY KEY,
  enquiry_id text NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  person_id bigint REFERENCES people (id),
  at timestamptz NOT NULL,
  what text NOT NULL
);
CREATE INDEX history_of ON history (enquiry_id);

CREATE TABLE audit (
  seq bigserial PRIMARY KEY,
  person_id bigint REFERENCES people (id),
  at timestamptz NOT NULL,
  action text NOT NULL CHECK (action IN ('view', 'export')),
  subject text NOT NULL
);
CREATE INDEX audit_at ON audit (at);
