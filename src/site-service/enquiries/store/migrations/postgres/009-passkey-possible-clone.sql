-- compatible-from: 2
-- As migrations/sqlite/009: when a passkey's signature counter last went backwards (a possible
-- clone), shown by `enquiries people`. Additive: the code before it runs on as before.
ALTER TABLE passkeys ADD COLUMN possible_clone_at timestamptz;
