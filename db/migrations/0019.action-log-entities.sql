-- The action log (migration 0016) covers entity merges and splits too, with one capture function
-- (issue 20, item 3; psan/store/actions.py): ``action_change.target`` names the changed table;
-- annotations and entity mentions are keyed by their span, rules and entities by ``row_id`` (was
-- ``rule_id``); the before-image is the whole old row as JSON (NULL: the action created the row).
ALTER TABLE action_change ADD COLUMN IF NOT EXISTS target text;
UPDATE action_change SET target = CASE WHEN rule_id IS NULL THEN 'annotation' ELSE 'rule' END WHERE target IS NULL;
ALTER TABLE action_change ALTER COLUMN target SET NOT NULL;
ALTER TABLE action_change RENAME COLUMN rule_id TO row_id;
ALTER TABLE action_change DROP CONSTRAINT IF EXISTS action_change_target;
ALTER TABLE action_change ADD CONSTRAINT action_change_target CHECK (
    (target IN ('annotation', 'entity_mention') AND document_id IS NOT NULL AND row_id IS NULL)
    OR (target IN ('rule', 'entity') AND row_id IS NOT NULL AND document_id IS NULL));
DROP INDEX IF EXISTS action_change_rule_idx;
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
DROP FUNCTION IF EXISTS psan_action_rule();
DROP FUNCTION IF EXISTS psan_action_annotation();
