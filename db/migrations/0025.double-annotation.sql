-- Double annotation (issue 24): a share of windows is annotated independently by a second annotator.
--
-- project.double_share: the share of finished windows (0..1) that become double windows.
-- double_window: a window the first annotator left (chosen at random by the window_log trigger with
-- probability double_share); state: 'open' (waiting for a second annotator), 'second' (claimed by
-- one), 'agreed' (the second version equals the first), 'disagreed' (waits for adjudication),
-- 'adjudicated' (an admin chose the final version).
-- double_span: every span of the window when the first annotator left it, with the rules' decision
-- (auto_decision: PUBLIC/PRIVATE, NULL = undecided by rules), the first annotator's version
-- (first_decision: the span's decision then, NULL = left undecided) and the second annotator's
-- (second_decision, NULL until decided).  The second version is stored only here: it is never
-- applied to the document.  A disagreement on a span the document shows as public is masked
-- (token decision PRIVATE, logged) until an admin adjudicates: disagreed spans never go out in clear.
ALTER TABLE project ADD COLUMN IF NOT EXISTS double_share real NOT NULL DEFAULT 0;
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_double_share_range;
ALTER TABLE project ADD CONSTRAINT project_double_share_range CHECK (double_share >= 0 AND double_share <= 1);

CREATE TABLE IF NOT EXISTS double_window (
    id              bigserial PRIMARY KEY,
    project_id      bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    document_id     bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    first_token     integer NOT NULL,
    end_token       integer NOT NULL,
    first_account   bigint REFERENCES account (id) ON DELETE SET NULL,
    second_account  bigint REFERENCES account (id) ON DELETE SET NULL,
    state           text NOT NULL DEFAULT 'open',
    created_at      timestamptz NOT NULL DEFAULT now(),
    second_at       timestamptz,
    second_done_at  timestamptz,
    adjudicated_by  bigint REFERENCES account (id) ON DELETE SET NULL,
    adjudicated_at  timestamptz,
    CONSTRAINT double_window_state CHECK (state IN ('open', 'second', 'agreed', 'disagreed', 'adjudicated')),
    CONSTRAINT double_window_range CHECK (0 <= first_token AND first_token < end_token)
);
CREATE INDEX IF NOT EXISTS double_window_project_idx ON double_window (project_id, state, id);

CREATE TABLE IF NOT EXISTS double_span (
    double_window_id bigint NOT NULL REFERENCES double_window (id) ON DELETE CASCADE,
    first_token      integer NOT NULL,
    end_token        integer NOT NULL,
    category         text NOT NULL,
    auto_decision    decision,
    first_decision   decision,
    second_decision  decision,
    final_decision   decision,
    PRIMARY KEY (double_window_id, first_token, end_token)
);

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
