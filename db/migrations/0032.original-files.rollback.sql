ALTER TABLE project DROP COLUMN IF EXISTS tracked_changes;
ALTER TABLE document DROP COLUMN IF EXISTS format_report;
ALTER TABLE document DROP COLUMN IF EXISTS original_format;
ALTER TABLE document DROP COLUMN IF EXISTS original;
