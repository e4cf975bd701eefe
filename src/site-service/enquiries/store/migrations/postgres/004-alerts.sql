-- compatible-from: 2
-- As migrations/sqlite/004: one open alert per delivery channel (the incident), closed once
-- everything of that channel is delivered again.
CREATE TABLE alerts (
  seq bigserial PRIMARY KEY,
  channel text NOT NULL,
  reason text NOT NULL,
  waiting integer NOT NULL,
  opened_at timestamptz NOT NULL,
  -- When a person was told by e-mail (the webhook's incidents; e-mail's cannot be).
  told_at timestamptz,
  closed_at timestamptz
);
CREATE UNIQUE INDEX alerts_open ON alerts (channel) WHERE closed_at IS NULL;
