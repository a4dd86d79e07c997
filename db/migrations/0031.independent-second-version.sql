-- The second version of a double window is independent: it is compared with the pre-annotation as the
-- first annotator saw it when the window was leased, never with what the document says when they left
-- (their word-type, entity and "always" decisions make rules and labels that would show their choices).
--
-- window_seen_lease / window_seen: a snapshot of the lease's spans taken when an account leases a new
-- window in a project with double annotation (double_share > 0): each span with the rules' decision
-- then (auto_decision, NULL = undecided) and its recognized category (never a label's).  When the window
-- is left, psan_log_window builds the double window's spans from the snapshot; a lease without one
-- (double annotation switched on during it) does not become a double window.
-- double_span.preannotated: the span existed when the window was leased (only those are shown to the
-- second annotator; a span the first annotator made is part of their version only).
CREATE TABLE IF NOT EXISTS window_seen_lease (
    account_id  bigint PRIMARY KEY REFERENCES account (id) ON DELETE CASCADE,
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS window_seen (
    account_id    bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    first_token   integer NOT NULL,
    end_token     integer NOT NULL,
    auto_decision decision,
    category      text NOT NULL,
    PRIMARY KEY (account_id, first_token, end_token)
);
ALTER TABLE double_span ADD COLUMN IF NOT EXISTS preannotated boolean NOT NULL DEFAULT true;

CREATE OR REPLACE FUNCTION psan_window_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM window_seen WHERE account_id = NEW.account_id;
    DELETE FROM window_seen_lease WHERE account_id = NEW.account_id;
    IF NOT EXISTS (SELECT 1 FROM document d JOIN project p ON p.id = d.project_id
                   WHERE d.id = NEW.document_id AND p.double_share > 0) THEN
        RETURN NULL;
    END IF;
    INSERT INTO window_seen_lease (account_id, document_id, created_at)
    VALUES (NEW.account_id, NEW.document_id, NEW.created_at);
    INSERT INTO window_seen (account_id, first_token, end_token, auto_decision, category)
    SELECT NEW.account_id, a.first_token, a.end_token,
           CASE WHEN a.rule_level <= p.private_threshold THEN 'PRIVATE'::decision
                WHEN a.rule_level >= p.public_threshold THEN 'PUBLIC'::decision END,
           coalesce((SELECT ne.category FROM named_entity ne WHERE ne.document_id = a.document_id
                     AND ne.first_token = a.first_token AND ne.end_token = a.end_token ORDER BY ne.id LIMIT 1),
                    'OTHER')
    FROM annotation a JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id
    WHERE a.document_id = NEW.document_id AND a.first_token >= NEW.first_token AND a.end_token <= NEW.end_token
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;

-- named after annotation_window_left, so that on a lease replaced in place the old window is logged
-- (from the old snapshot) before the new snapshot replaces it: triggers fire in the order of their names
DROP TRIGGER IF EXISTS annotation_window_seen ON annotation_window;
DROP TRIGGER IF EXISTS annotation_window_seen_new ON annotation_window;
CREATE TRIGGER annotation_window_seen AFTER UPDATE ON annotation_window
    FOR EACH ROW WHEN (pg_trigger_depth() = 0 AND (OLD.created_at IS DISTINCT FROM NEW.created_at
                       OR OLD.document_id IS DISTINCT FROM NEW.document_id))
    EXECUTE FUNCTION psan_window_seen();
CREATE TRIGGER annotation_window_seen_new AFTER INSERT ON annotation_window
    FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION psan_window_seen();

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
       AND EXISTS (SELECT 1 FROM window_seen_lease s WHERE s.account_id = OLD.account_id
                   AND s.document_id = OLD.document_id AND s.created_at = OLD.created_at)
       AND NOT EXISTS (SELECT 1 FROM double_window x WHERE x.document_id = OLD.document_id
                       AND x.first_token < OLD.end_token AND x.end_token > OLD.first_token) THEN
        INSERT INTO double_window (project_id, document_id, first_token, end_token, first_account)
        VALUES (project, OLD.document_id, OLD.first_token, OLD.end_token, OLD.account_id) RETURNING id INTO dw;
        INSERT INTO double_span (double_window_id, first_token, end_token, category, auto_decision, first_decision,
                                 preannotated)
        SELECT dw, a.first_token, a.end_token,
               coalesce(s.category,
                        (SELECT ne.category FROM named_entity ne WHERE ne.document_id = a.document_id
                         AND ne.first_token = a.first_token AND ne.end_token = a.end_token ORDER BY ne.id LIMIT 1),
                        'OTHER'),
               s.auto_decision,
               coalesce(a.token_decision, CASE WHEN a.rule_level <= p.private_threshold THEN 'PRIVATE'::decision
                                               WHEN a.rule_level >= p.public_threshold THEN 'PUBLIC'::decision END),
               s.account_id IS NOT NULL
        FROM annotation a JOIN project p ON p.id = project
        LEFT JOIN window_seen s ON s.account_id = OLD.account_id AND s.first_token = a.first_token
                               AND s.end_token = a.end_token
        WHERE a.document_id = OLD.document_id AND a.first_token >= OLD.first_token AND a.end_token <= OLD.end_token;
    END IF;
    RETURN NULL;
END $$;

-- Background work that failed for good (after Celery's retries of transient database and broker errors):
-- shown on the project's documents page and dashboard until it is older than a week (psan.celery.retry).
CREATE TABLE IF NOT EXISTS task_failure (
    id          bigserial PRIMARY KEY,
    project_id  bigint REFERENCES project (id) ON DELETE CASCADE,
    document_id bigint REFERENCES document (id) ON DELETE CASCADE,
    task        text NOT NULL,
    error       text NOT NULL,
    retries     integer NOT NULL DEFAULT 0,
    failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS task_failure_project_idx ON task_failure (project_id, failed_at);
