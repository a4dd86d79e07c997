-- The action log (issue 20, item 3; psan/store/actions.py): every annotator action (a decision, a
-- label, accepting a window's suggestions, an entity decision, an entity merge or split, a bulk
-- decision …) is one ``action`` row, and ``action_change`` holds the before-image of every row it
-- changed (the whole old row as JSON; NULL = the action created the row): annotations (keyed by
-- their span; only changes of the person's decision or label are captured), rules (by id), entity
-- mentions (by span) and entities (by id).  Undo (psan.store.actions.undo_action) writes the
-- before-images back in one transaction and re-applies the rules.
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
    -- the changed table: annotation and entity_mention rows are keyed by their span, rule and entity by row_id
    target      text NOT NULL,
    document_id bigint REFERENCES document (id) ON DELETE CASCADE,
    first_token integer,
    end_token   integer,
    row_id      bigint,
    before      jsonb,
    CONSTRAINT action_change_target CHECK (
        (target IN ('annotation', 'entity_mention') AND document_id IS NOT NULL AND row_id IS NULL)
        OR (target IN ('rule', 'entity') AND row_id IS NOT NULL AND document_id IS NULL))
);
CREATE INDEX IF NOT EXISTS action_change_action_idx ON action_change (action_id, id);
CREATE INDEX IF NOT EXISTS action_change_span_idx ON action_change (document_id, first_token, end_token)
    WHERE document_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS action_change_row_idx ON action_change (target, row_id) WHERE row_id IS NOT NULL;

-- one capture function for every table: the row's key and its before-image, the first image per row
-- and action only
CREATE OR REPLACE FUNCTION psan_action_capture() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    act bigint := nullif(current_setting('psan.action', true), '')::bigint;
    r jsonb;
    rid bigint;
    doc bigint;
    f integer;
    e integer;
BEGIN
    IF act IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN r := to_jsonb(NEW); ELSE r := to_jsonb(OLD); END IF;
    IF TG_TABLE_NAME IN ('rule', 'entity') THEN
        rid := (r->>'id')::bigint;
    ELSE
        doc := (r->>'document_id')::bigint;
        f := (r->>'first_token')::int;
        e := (r->>'end_token')::int;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM action_change c WHERE c.action_id = act AND c.target = TG_TABLE_NAME
                   AND c.row_id IS NOT DISTINCT FROM rid AND c.document_id IS NOT DISTINCT FROM doc
                   AND c.first_token IS NOT DISTINCT FROM f AND c.end_token IS NOT DISTINCT FROM e) THEN
        INSERT INTO action_change (action_id, target, document_id, first_token, end_token, row_id, before)
        VALUES (act, TG_TABLE_NAME, doc, f, e, rid, CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE r END);
    END IF;
    RETURN NULL;
END $$;

-- WHEN clauses: rule application's inserts and level updates never call the function
DROP TRIGGER IF EXISTS annotation_action_insert ON annotation;
CREATE TRIGGER annotation_action_insert AFTER INSERT ON annotation FOR EACH ROW
    WHEN (NEW.token_decision IS NOT NULL) EXECUTE FUNCTION psan_action_capture();
DROP TRIGGER IF EXISTS annotation_action_update ON annotation;
CREATE TRIGGER annotation_action_update AFTER UPDATE OF token_decision, token_label_id ON annotation FOR EACH ROW
    WHEN (OLD.token_decision IS DISTINCT FROM NEW.token_decision
          OR OLD.token_label_id IS DISTINCT FROM NEW.token_label_id) EXECUTE FUNCTION psan_action_capture();
DROP TRIGGER IF EXISTS annotation_action_delete ON annotation;
CREATE TRIGGER annotation_action_delete AFTER DELETE ON annotation FOR EACH ROW
    WHEN (OLD.token_decision IS NOT NULL) EXECUTE FUNCTION psan_action_capture();
DROP TRIGGER IF EXISTS rule_action ON rule;
CREATE TRIGGER rule_action AFTER INSERT OR UPDATE OR DELETE ON rule FOR EACH ROW
    EXECUTE FUNCTION psan_action_capture();
-- merges and splits change mentions' entity and entities' aliases (pre-processing's inserts are not captured)
DROP TRIGGER IF EXISTS entity_mention_action ON entity_mention;
CREATE TRIGGER entity_mention_action AFTER UPDATE OF entity_id, manual ON entity_mention FOR EACH ROW
    WHEN (OLD.entity_id IS DISTINCT FROM NEW.entity_id OR OLD.manual IS DISTINCT FROM NEW.manual)
    EXECUTE FUNCTION psan_action_capture();
DROP TRIGGER IF EXISTS entity_action ON entity;
CREATE TRIGGER entity_action AFTER INSERT OR UPDATE OF merged_into, category OR DELETE ON entity FOR EACH ROW
    EXECUTE FUNCTION psan_action_capture();
