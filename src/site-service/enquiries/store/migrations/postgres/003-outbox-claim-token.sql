-- compatible-from: 2
-- Additive (a nullable column): code of schema version 2, which neither writes nor checks it, still runs.
-- As migrations/sqlite/003: the claim's token that fences each recorded attempt.
ALTER TABLE outbox ADD COLUMN claim_token text;
