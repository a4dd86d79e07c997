DROP TABLE IF EXISTS qa_sample_token;
DROP TABLE IF EXISTS qa_sample;
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_undecided_output;
ALTER TABLE project DROP COLUMN IF EXISTS undecided_output;
