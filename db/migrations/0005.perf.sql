-- Targeted re-annotation (psan/store/apply_rule.py) maps text positions found by a search over
-- document.text to tokens: "which token starts at character N" must be an index lookup, not a
-- scan of a 10^6-token document.
CREATE INDEX IF NOT EXISTS token_document_start_char_idx ON token (document_id, start_char);
