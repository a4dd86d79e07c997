-- back to migration 0016: entity changes are dropped from the log, the two capture functions return
DROP TRIGGER IF EXISTS entity_action ON entity;
DROP TRIGGER IF EXISTS entity_mention_action ON entity_mention;
DELETE FROM action_change WHERE target IN ('entity', 'entity_mention');
ALTER TABLE action_change DROP CONSTRAINT IF EXISTS action_change_target;
DROP INDEX IF EXISTS action_change_row_idx;
ALTER TABLE action_change RENAME COLUMN row_id TO rule_id;
ALTER TABLE action_change DROP COLUMN IF EXISTS target;
ALTER TABLE action_change ADD CONSTRAINT action_change_target CHECK ((rule_id IS NULL) = (document_id IS NOT NULL));
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
DROP FUNCTION IF EXISTS psan_action_capture();
