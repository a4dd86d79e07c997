-- Indexes for the rules and labels pages: label usage counts and ON DELETE SET NULL of a label
-- scan rule.label_id and annotation.token_label_id; the rules list filters by author.
CREATE INDEX IF NOT EXISTS rule_label_idx ON rule (label_id) WHERE label_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS rule_author_idx ON rule (project_id, author_id) WHERE annotation_id IS NULL;
CREATE INDEX IF NOT EXISTS annotation_token_label_idx ON annotation (token_label_id) WHERE token_label_id IS NOT NULL;
