-- Targeted project re-annotation (issue 20): a project run re-annotates only the documents a changed
-- rule can affect, not every document (psan.store.corpus.rule_changes).

-- the distinct case-folded token texts of a recognized document: which documents a word-type rule can
-- match in (GIN, `words @> condition`); written with the tokens (psan.store.corpus.documents.save_recognized),
-- deleted with them; a document without a row is re-annotated by every project run until it has one
CREATE TABLE IF NOT EXISTS document_vocabulary (
    document_id bigint PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    words       text[] NOT NULL
);
CREATE INDEX IF NOT EXISTS document_vocabulary_words_idx ON document_vocabulary USING gin (words);

-- rule changes not yet applied to the project's other documents: written by the triggers below in the
-- changing transaction (whatever changes a rule: decisions, undo, admin pages, cascades), deleted by the
-- project run that applied them.  No foreign keys: a change outlives its rule (a deletion is a change).
CREATE TABLE IF NOT EXISTS rule_change (
    id                     bigserial PRIMARY KEY,
    project_id             bigint NOT NULL,
    rule_id                bigint NOT NULL,
    -- how the rule matched before (NULL: it did not exist) and after (NULL: deleted)
    old_type               text,
    old_condition          text,
    new_type               text,
    new_condition          text,
    -- a lookup rule's annotation keeps that annotation alive: its document
    annotation_document_id bigint,
    -- the document the changing transaction already brought up to date (psan.store.annotation.apply_rule)
    applied_document_id    bigint,
    xact                   bigint NOT NULL DEFAULT txid_current(),
    created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS rule_change_project_idx ON rule_change (project_id, id);

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

-- a project being deleted takes its rules along: nothing to re-annotate then, and its pending changes go
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

DROP TRIGGER IF EXISTS rule_inserted_change ON rule;
CREATE TRIGGER rule_inserted_change AFTER INSERT ON rule REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION psan_rule_inserted();
DROP TRIGGER IF EXISTS rule_updated_change ON rule;
CREATE TRIGGER rule_updated_change AFTER UPDATE ON rule REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION psan_rule_updated();
DROP TRIGGER IF EXISTS rule_deleted_change ON rule;
CREATE TRIGGER rule_deleted_change AFTER DELETE ON rule REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION psan_rule_deleted();
