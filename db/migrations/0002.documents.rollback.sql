ALTER TABLE document DROP COLUMN IF EXISTS recognized_at;
