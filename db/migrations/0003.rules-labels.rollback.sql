DROP INDEX IF EXISTS annotation_token_label_idx;
DROP INDEX IF EXISTS rule_author_idx;
DROP INDEX IF EXISTS rule_label_idx;
