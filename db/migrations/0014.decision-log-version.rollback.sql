DROP INDEX IF EXISTS decision_log_project_id_idx;
