ALTER TABLE risk_sample_sentence DROP COLUMN IF EXISTS unseen;
