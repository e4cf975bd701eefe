-- compatible-from: 2
-- Additive (a column): the code before it runs on as before.
-- When a passkey last gave a signature counter not above the one stored (a copy of it signing in
-- too, WebAuthn's sign of a cloned authenticator): that sign-in is refused, and `enquiries people`
-- shows the time under its person, until the passkey goes (revoke).
ALTER TABLE passkeys ADD COLUMN possible_clone_at TEXT;
