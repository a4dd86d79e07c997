-- A span that a word rule at 0 matches (a lookup: the words of a span a person decided private, suspicious where
-- they recur) is never above level 0, whatever votes public there (psan.tool.decisions.precedence.rule_level).
-- The levels stored before summed a public vote over the lookup.  The sum itself is unchanged and the code now
-- computes min(sum, 0), so min(stored level, 0) is exactly the new level; a document that holds such a span
-- undecided waits for a person again (PRE_ANNOTATED), as the app's status refresh would set it.
-- No rollback: the code before this one computes the sum again at a document's next re-annotation, and until then
-- the capped levels only mask more.
UPDATE annotation a SET rule_level = 0
WHERE a.rule_level > 0 AND EXISTS (
    SELECT 1 FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id
    WHERE ar.annotation_id = a.id AND r.type IN ('WORD_TYPE', 'LEMMA') AND r.confidence = 0);

UPDATE document d SET status = 'PRE_ANNOTATED', updated_at = now()
WHERE d.status = 'DONE' AND EXISTS (
    SELECT 1 FROM annotation a JOIN project p ON p.id = d.project_id
    JOIN annotation_rule ar ON ar.annotation_id = a.id JOIN rule r ON r.id = ar.rule_id
    WHERE a.document_id = d.id AND a.token_decision IS NULL AND a.rule_level > p.private_threshold
    AND a.rule_level < p.public_threshold AND r.type IN ('WORD_TYPE', 'LEMMA') AND r.confidence = 0);
