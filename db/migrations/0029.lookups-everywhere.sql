-- A project setting: every private decision's lookup rule reaches every document (the 2021 app's candidate
-- rules, and what a project whose documents are one case file may want); default off: a place, an
-- organisation, a date … decided private makes its words suspicious in its own document only (migration 0028).

ALTER TABLE project ADD COLUMN IF NOT EXISTS lookups_everywhere boolean NOT NULL DEFAULT false;
