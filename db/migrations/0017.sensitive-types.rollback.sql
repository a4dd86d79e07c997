ALTER TABLE project DROP CONSTRAINT IF EXISTS project_sensitive_types_size;
ALTER TABLE project DROP COLUMN IF EXISTS sensitive_types;
