DROP INDEX IF EXISTS annotation_private_idx;
