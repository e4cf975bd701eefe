-- compatible-from: 2
-- As migrations/sqlite/008: a person's access has a generation, moved on by each revoke; a session
-- is valid only in the generation it was started in. Additive: the code before it runs on as before.
ALTER TABLE people ADD COLUMN generation integer NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN person_generation integer NOT NULL DEFAULT 0;
