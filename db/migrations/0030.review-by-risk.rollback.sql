DROP TABLE IF EXISTS risk_sample_sentence;
DROP TABLE IF EXISTS risk_sample;
ALTER TABLE project DROP COLUMN IF EXISTS qa_target;
ALTER TABLE project DROP COLUMN IF EXISTS review_mode;
