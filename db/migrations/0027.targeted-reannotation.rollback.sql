DROP TRIGGER IF EXISTS rule_deleted_change ON rule;
DROP TRIGGER IF EXISTS rule_updated_change ON rule;
DROP TRIGGER IF EXISTS rule_inserted_change ON rule;
DROP FUNCTION IF EXISTS psan_rule_deleted();
DROP FUNCTION IF EXISTS psan_rule_updated();
DROP FUNCTION IF EXISTS psan_rule_inserted();
DROP TABLE IF EXISTS rule_change;
DROP TABLE IF EXISTS document_vocabulary;
