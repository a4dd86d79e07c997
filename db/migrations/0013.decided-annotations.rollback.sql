DROP INDEX IF EXISTS annotation_decided_idx;
