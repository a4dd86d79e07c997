-- Per-type decision counts (psan.store.suggestions.type_statistics) run twice per decision; without
-- this index they scanned every annotation of the project to find the few a person decided.  Partial:
-- only decided spans are indexed, so it stays small and costs nothing for rule-only annotations.
CREATE INDEX IF NOT EXISTS annotation_decided_idx ON annotation (document_id, first_token, end_token)
    WHERE token_decision IS NOT NULL;
