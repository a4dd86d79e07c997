-- Categories and entity types an admin marks as sensitive for a project (issue 20, item 4): never
-- suggested PUBLIC, never decided public by learned types or by accepting a window; only a person's
-- explicit decision makes them public (psan.tool.sensitivity lists the ones that always are).
ALTER TABLE project ADD COLUMN IF NOT EXISTS sensitive_types text[] NOT NULL DEFAULT '{}';
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_sensitive_types_size;
ALTER TABLE project ADD CONSTRAINT project_sensitive_types_size CHECK (cardinality(sensitive_types) <= 100);
