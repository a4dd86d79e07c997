DROP TABLE IF EXISTS double_span;
DROP TABLE IF EXISTS double_window;
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_double_share_range;
ALTER TABLE project DROP COLUMN IF EXISTS double_share;
CREATE OR REPLACE FUNCTION psan_log_window() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO window_log (project_id, document_id, account_id, first_token, end_token, decisions, forced,
                            started_at, finished_at)
    SELECT d.project_id, OLD.document_id, OLD.account_id, OLD.first_token, OLD.end_token, OLD.decisions,
           OLD.forced, OLD.created_at, greatest(OLD.created_at, least(now(), OLD.expires_at))
    FROM document d WHERE d.id = OLD.document_id;
    RETURN NULL;
END $$;
