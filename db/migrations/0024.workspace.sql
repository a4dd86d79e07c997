-- The annotation workspace (issue 24): finished windows, the annotator's chosen project/document.
--
-- window_log: one row per window an account left (replaced by another or released).  Written by a
-- trigger on annotation_window, so every path that moves a lease (psan.store.windows) is recorded
-- without touching the hot window statements.  started_at = when the lease was taken, finished_at =
-- when it was left (never later than its lease expiry: an annotator who walked away is not counted
-- as working).  The dashboard derives windows per hour, seconds per window and the forecast from it.
CREATE TABLE IF NOT EXISTS window_log (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    document_id bigint REFERENCES document (id) ON DELETE CASCADE,
    account_id  bigint REFERENCES account (id) ON DELETE SET NULL,
    first_token integer NOT NULL,
    end_token   integer NOT NULL,
    decisions   integer NOT NULL,
    forced      boolean NOT NULL,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS window_log_project_idx ON window_log (project_id, finished_at);
CREATE INDEX IF NOT EXISTS window_log_account_idx ON window_log (account_id, finished_at);

CREATE OR REPLACE FUNCTION psan_log_window() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO window_log (project_id, document_id, account_id, first_token, end_token, decisions, forced,
                            started_at, finished_at)
    SELECT d.project_id, OLD.document_id, OLD.account_id, OLD.first_token, OLD.end_token, OLD.decisions,
           OLD.forced, OLD.created_at, greatest(OLD.created_at, least(now(), OLD.expires_at))
    FROM document d WHERE d.id = OLD.document_id;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS annotation_window_left ON annotation_window;
DROP TRIGGER IF EXISTS annotation_window_released ON annotation_window;
-- a lease is replaced (created_at changes) or released; renewing a lease changes only expires_at/decisions.
-- pg_trigger_depth() = 0: a lease deleted with its document or account (a cascade) is not a finished window
CREATE TRIGGER annotation_window_left AFTER UPDATE ON annotation_window
    FOR EACH ROW WHEN (pg_trigger_depth() = 0 AND (OLD.created_at IS DISTINCT FROM NEW.created_at
                       OR OLD.document_id IS DISTINCT FROM NEW.document_id))
    EXECUTE FUNCTION psan_log_window();
CREATE TRIGGER annotation_window_released AFTER DELETE ON annotation_window
    FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION psan_log_window();

-- The annotator's choice on the home page: windows come from this project (and document, where the
-- project allows annotators to choose documents) until they choose otherwise.
ALTER TABLE account ADD COLUMN IF NOT EXISTS chosen_project_id bigint REFERENCES project (id) ON DELETE SET NULL;
ALTER TABLE account ADD COLUMN IF NOT EXISTS chosen_document_id bigint REFERENCES document (id) ON DELETE SET NULL;
ALTER TABLE project ADD COLUMN IF NOT EXISTS annotators_choose_document boolean NOT NULL DEFAULT false;
