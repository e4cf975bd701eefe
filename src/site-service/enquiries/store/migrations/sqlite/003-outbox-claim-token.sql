-- compatible-from: 2
-- Additive (a nullable column): code of schema version 2, which neither writes nor checks it, still runs.
-- A claim's token: each claim writes a new one, and an attempt is recorded only on a row that still
-- carries the token its sender claimed it with. A send that outlived its lease (another sender took
-- the row over, or the enquiry was erased) cannot undo the other's result.
ALTER TABLE outbox ADD COLUMN claim_token TEXT;
