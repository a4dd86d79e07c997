-- The action log (issue 20, item 3; psan/store/actions.py): every annotator action (a decision, a
-- label, accepting a window's suggestions, an entity decision, a bulk decision …) is one ``action``
-- row, and ``action_change`` holds the before-image of every row it changed: the person's decision
-- columns of an annotation (keyed by its span, NULL before = the row did not exist) and whole rule
-- rows (NULL before = the action created the rule).  Undo (psan.store.actions.undo_action) writes
-- the before-images back in one transaction and re-applies the rules.
-- Rows are captured by triggers while the transaction-local setting ``psan.action`` names the
-- action; with it unset (admin rule edits, re-annotation, pre-processing) the triggers do nothing.
-- No document text is stored (spans are token ranges; rules keep their condition, as the rule table).
CREATE TABLE IF NOT EXISTS action (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    account_id  bigint REFERENCES account (id) ON DELETE SET NULL,
    kind        text NOT NULL,
    document_id bigint REFERENCES document (id) ON DELETE CASCADE,
    first_token integer,
    end_token   integer,
    detail      jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    undone_at   timestamptz,
    undone_by   bigint REFERENCES account (id) ON DELETE SET NULL,
    CONSTRAINT action_kind_length CHECK (length(kind) BETWEEN 1 AND 40)
);
CREATE INDEX IF NOT EXISTS action_account_idx ON action (account_id, id DESC);
CREATE INDEX IF NOT EXISTS action_project_idx ON action (project_id, id DESC);

CREATE TABLE IF NOT EXISTS action_change (
    id          bigserial PRIMARY KEY,
    action_id   bigint NOT NULL REFERENCES action (id) ON DELETE CASCADE,
    -- an annotation's span, or a rule's id (exactly one of them)
    document_id bigint REFERENCES document (id) ON DELETE CASCADE,
    first_token integer,
    end_token   integer,
    rule_id     bigint,
    before      jsonb,
    CONSTRAINT action_change_target CHECK ((rule_id IS NULL) = (document_id IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS action_change_action_idx ON action_change (action_id, id);
CREATE INDEX IF NOT EXISTS action_change_span_idx ON action_change (document_id, first_token, end_token)
    WHERE document_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS action_change_rule_idx ON action_change (rule_id) WHERE rule_id IS NOT NULL;

CREATE OR REPLACE FUNCTION psan_action_annotation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    act bigint := nullif(current_setting('psan.action', true), '')::bigint;
    r annotation;
BEGIN
    IF act IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN r := NEW; ELSE r := OLD; END IF;
    IF NOT EXISTS (SELECT 1 FROM action_change c WHERE c.action_id = act AND c.document_id = r.document_id
                   AND c.first_token = r.first_token AND c.end_token = r.end_token) THEN
        INSERT INTO action_change (action_id, document_id, first_token, end_token, before)
        VALUES (act, r.document_id, r.first_token, r.end_token,
                CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE jsonb_build_object(
                    'token_decision', OLD.token_decision, 'token_label_id', OLD.token_label_id,
                    'decided_by', OLD.decided_by, 'decided_at', OLD.decided_at) END);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION psan_action_rule() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    act bigint := nullif(current_setting('psan.action', true), '')::bigint;
    rid bigint;
BEGIN
    IF act IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN rid := NEW.id; ELSE rid := OLD.id; END IF;
    IF NOT EXISTS (SELECT 1 FROM action_change c WHERE c.action_id = act AND c.rule_id = rid) THEN
        INSERT INTO action_change (action_id, rule_id, before)
        VALUES (act, rid, CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END);
    END IF;
    RETURN NULL;
END $$;

-- WHEN clauses: rule application's inserts and level updates never call the functions
DROP TRIGGER IF EXISTS annotation_action_insert ON annotation;
CREATE TRIGGER annotation_action_insert AFTER INSERT ON annotation FOR EACH ROW
    WHEN (NEW.token_decision IS NOT NULL) EXECUTE FUNCTION psan_action_annotation();
DROP TRIGGER IF EXISTS annotation_action_update ON annotation;
CREATE TRIGGER annotation_action_update AFTER UPDATE OF token_decision, token_label_id ON annotation FOR EACH ROW
    WHEN (OLD.token_decision IS DISTINCT FROM NEW.token_decision
          OR OLD.token_label_id IS DISTINCT FROM NEW.token_label_id) EXECUTE FUNCTION psan_action_annotation();
DROP TRIGGER IF EXISTS annotation_action_delete ON annotation;
CREATE TRIGGER annotation_action_delete AFTER DELETE ON annotation FOR EACH ROW
    WHEN (OLD.token_decision IS NOT NULL) EXECUTE FUNCTION psan_action_annotation();
DROP TRIGGER IF EXISTS rule_action ON rule;
CREATE TRIGGER rule_action AFTER INSERT OR UPDATE OR DELETE ON rule FOR EACH ROW
    EXECUTE FUNCTION psan_action_rule();
