CREATE OR REPLACE FUNCTION psan_rule_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rule_change (project_id, rule_id, new_type, new_condition, annotation_document_id)
    SELECT n.project_id, n.id, n.type::text, n.condition, a.document_id
    FROM new_rows n LEFT JOIN annotation a ON a.id = n.annotation_id;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION psan_rule_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rule_change (project_id, rule_id, old_type, old_condition, new_type, new_condition,
                             annotation_document_id)
    SELECT n.project_id, n.id, o.type::text, o.condition, n.type::text, n.condition,
           coalesce(a.document_id, b.document_id)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    LEFT JOIN annotation a ON a.id = n.annotation_id LEFT JOIN annotation b ON b.id = o.annotation_id
    WHERE o.type IS DISTINCT FROM n.type OR o.condition IS DISTINCT FROM n.condition
       OR o.case_sensitive IS DISTINCT FROM n.case_sensitive OR o.confidence IS DISTINCT FROM n.confidence
       OR o.annotation_id IS DISTINCT FROM n.annotation_id OR o.project_id IS DISTINCT FROM n.project_id;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION psan_rule_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rule_change (project_id, rule_id, old_type, old_condition, annotation_document_id)
    SELECT o.project_id, o.id, o.type::text, o.condition, a.document_id
    FROM old_rows o LEFT JOIN annotation a ON a.id = o.annotation_id
    WHERE EXISTS (SELECT 1 FROM project p WHERE p.id = o.project_id);
    DELETE FROM rule_change c USING (SELECT DISTINCT project_id FROM old_rows) o
    WHERE c.project_id = o.project_id AND NOT EXISTS (SELECT 1 FROM project p WHERE p.id = o.project_id);
    RETURN NULL;
END $$;

ALTER TABLE rule_change DROP COLUMN IF EXISTS document_only;
ALTER TABLE rule DROP CONSTRAINT IF EXISTS rule_document_only_lookup;
ALTER TABLE rule DROP COLUMN IF EXISTS document_only;
