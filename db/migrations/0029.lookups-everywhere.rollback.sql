ALTER TABLE project DROP COLUMN IF EXISTS lookups_everywhere;
