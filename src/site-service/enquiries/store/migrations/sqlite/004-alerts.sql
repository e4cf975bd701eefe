-- compatible-from: 2
-- Additive (a new table): code of schema version 2 and later, which knows nothing of it, still runs.
-- An alert on a delivery channel (the e-mail, the webhook) that is failing: one open row per channel
-- (the incident), so that of all the instances, the Function and `retry`, the one whose insert
-- went in tells a person, once; closed when everything of that channel is delivered again.
CREATE TABLE alerts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL,
  reason TEXT NOT NULL,
  waiting INTEGER NOT NULL,
  opened_at TEXT NOT NULL,
  -- When a person was told by e-mail (the webhook's incidents; e-mail's cannot be).
  told_at TEXT,
  closed_at TEXT
);
CREATE UNIQUE INDEX alerts_open ON alerts (channel) WHERE closed_at IS NULL;
