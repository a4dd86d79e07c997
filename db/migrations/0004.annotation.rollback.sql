DROP INDEX IF EXISTS decision_log_span_idx;
DROP INDEX IF EXISTS annotation_undecided_idx;
ALTER TABLE annotation_window
    DROP COLUMN IF EXISTS forced,
    DROP COLUMN IF EXISTS decisions,
    DROP COLUMN IF EXISTS created_at;
