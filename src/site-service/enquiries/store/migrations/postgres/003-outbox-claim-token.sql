-- As migrations/sqlite/003: the claim's token that fences each recorded attempt.
ALTER TABLE outbox ADD COLUMN claim_token text;
