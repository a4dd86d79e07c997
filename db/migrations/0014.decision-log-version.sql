-- The newest decision of a project in one index step: psan.store.suggestions caches its per-type
-- decision counts per process and reads only this (project_id, id) to know whether they are current.
CREATE INDEX IF NOT EXISTS decision_log_project_id_idx ON decision_log (project_id, id);
