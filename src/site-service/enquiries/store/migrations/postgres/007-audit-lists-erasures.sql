-- compatible-from: 2
-- As migrations/sqlite/007: the audit also records the inbox's lists and searches and every
-- erasure, and the operator's account when the CLI acted. Additive for the code before it.
ALTER TABLE audit DROP CONSTRAINT audit_action_check;
ALTER TABLE audit ADD CONSTRAINT audit_action_check CHECK (action IN ('view', 'export', 'list', 'erase'));
ALTER TABLE audit ADD COLUMN operator_account text;
