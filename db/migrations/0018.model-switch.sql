-- The admin's switch for a project's learned model (issue 20, item 2; projects page "Model"): off,
-- the model's predictions are removed and no new ones are made, whatever its evaluation says.
ALTER TABLE project ADD COLUMN IF NOT EXISTS model_enabled boolean NOT NULL DEFAULT true;
