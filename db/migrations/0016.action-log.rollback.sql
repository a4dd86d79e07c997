DROP TRIGGER IF EXISTS entity_action ON entity;
DROP TRIGGER IF EXISTS entity_mention_action ON entity_mention;
DROP TRIGGER IF EXISTS rule_action ON rule;
DROP TRIGGER IF EXISTS annotation_action_delete ON annotation;
DROP TRIGGER IF EXISTS annotation_action_update ON annotation;
DROP TRIGGER IF EXISTS annotation_action_insert ON annotation;
DROP FUNCTION IF EXISTS psan_action_capture();
DROP TABLE IF EXISTS action_change;
DROP TABLE IF EXISTS action;
