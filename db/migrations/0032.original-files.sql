-- Documents uploaded as DOCX, ODT, HTML or PDF keep their original bytes, so every output mode can be
-- downloaded in the same format (psan.tool.formats writes the edits back into the file); the format's report
-- (parts found, metadata removed, parts dropped, the tracked-changes mode the text was read with) goes with it.
-- A project chooses whether tracked changes of its office files are accepted (default) or rejected on upload.

ALTER TABLE document ADD COLUMN IF NOT EXISTS original bytea;
ALTER TABLE document ADD COLUMN IF NOT EXISTS original_format text;
ALTER TABLE document ADD COLUMN IF NOT EXISTS format_report jsonb;
ALTER TABLE project ADD COLUMN IF NOT EXISTS tracked_changes text NOT NULL DEFAULT 'accept'
    CHECK (tracked_changes IN ('accept', 'reject'));
