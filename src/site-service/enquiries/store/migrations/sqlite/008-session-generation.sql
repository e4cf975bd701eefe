-- compatible-from: 2
-- Additive (two columns with defaults): the code before it runs on as before.
-- A person's access has a generation, moved on by each revoke; a session carries the generation
-- it was started in, and is valid only while that is still the person's. Inviting a revoked
-- person again gives access again, but never to a session of before: one that a sign-in racing
-- the revoke (or an earlier release's instance, which knows nothing of this) started too late for
-- the revoke to delete stays dead. Every session there is now is of generation 0, as is everyone.
ALTER TABLE people ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN person_generation INTEGER NOT NULL DEFAULT 0;
