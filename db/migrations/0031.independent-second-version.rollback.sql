DROP TABLE IF EXISTS task_failure;
DROP TRIGGER IF EXISTS annotation_window_seen ON annotation_window;
DROP TRIGGER IF EXISTS annotation_window_seen_new ON annotation_window;
DROP FUNCTION IF EXISTS psan_window_seen();
DROP TABLE IF EXISTS window_seen;
DROP TABLE IF EXISTS window_seen_lease;
ALTER TABLE double_span DROP COLUMN IF EXISTS preannotated;
-- psan_log_window as migration 0025 made it
CREATE OR REPLACE FUNCTION psan_log_window() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    project bigint;
    share real;
    dw bigint;
BEGIN
    SELECT d.project_id, p.double_share INTO project, share FROM document d JOIN project p ON p.id = d.project_id
    WHERE d.id = OLD.document_id;
    IF project IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO window_log (project_id, document_id, account_id, first_token, end_token, decisions, forced,
                            started_at, finished_at)
    VALUES (project, OLD.document_id, OLD.account_id, OLD.first_token, OLD.end_token, OLD.decisions,
            OLD.forced, OLD.created_at, greatest(OLD.created_at, least(now(), OLD.expires_at)));
    IF share > 0 AND OLD.decisions > 0 AND NOT OLD.forced AND random() < share
       AND NOT EXISTS (SELECT 1 FROM double_window x WHERE x.document_id = OLD.document_id
                       AND x.first_token < OLD.end_token AND x.end_token > OLD.first_token) THEN
        INSERT INTO double_window (project_id, document_id, first_token, end_token, first_account)
        VALUES (project, OLD.document_id, OLD.first_token, OLD.end_token, OLD.account_id) RETURNING id INTO dw;
        INSERT INTO double_span (double_window_id, first_token, end_token, category, auto_decision, first_decision)
        SELECT dw, a.first_token, a.end_token,
               coalesce((SELECT l.category FROM label l WHERE l.id = a.token_label_id),
                        (SELECT ne.category FROM named_entity ne WHERE ne.document_id = a.document_id
                         AND ne.first_token = a.first_token AND ne.end_token = a.end_token ORDER BY ne.id LIMIT 1),
                        'OTHER'),
               CASE WHEN a.rule_level <= p.private_threshold THEN 'PRIVATE'::decision
                    WHEN a.rule_level >= p.public_threshold THEN 'PUBLIC'::decision END,
               coalesce(a.token_decision, CASE WHEN a.rule_level <= p.private_threshold THEN 'PRIVATE'::decision
                                               WHEN a.rule_level >= p.public_threshold THEN 'PUBLIC'::decision END)
        FROM annotation a JOIN project p ON p.id = project
        WHERE a.document_id = OLD.document_id AND a.first_token >= OLD.first_token AND a.end_token <= OLD.end_token;
    END IF;
    RETURN NULL;
END $$;
