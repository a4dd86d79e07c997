ALTER TABLE project DROP COLUMN IF EXISTS model_enabled;
