-- compatible-from: 2
-- Additive for the code before it, which writes and reads only views and exports: it runs on as
-- before. The audit records the inbox's lists and searches (the filters, never the words searched
-- for) and every erasure (the enquiries' ids, how many; never the address), and says who acted when
-- it was no person of the inbox: the operator's account at the CLI (`enquiries erase`). Kept when
-- the enquiries go. SQLite cannot change a CHECK in place: the table is made again, its rows kept.
CREATE TABLE audit_next (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  person_id INTEGER REFERENCES people (id),
  at TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('view', 'export', 'list', 'erase')),
  subject TEXT NOT NULL,
  operator_account TEXT
);
INSERT INTO audit_next (seq, person_id, at, action, subject) SELECT seq, person_id, at, action, subject FROM audit;
DROP TABLE audit;
ALTER TABLE audit_next RENAME TO audit;
CREATE INDEX audit_at ON audit (at);
