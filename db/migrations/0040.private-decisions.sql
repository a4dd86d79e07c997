-- A rule's match strictly inside a span a person decided private is covered by it and not written
-- (psan.tool.rules.drop_covered).  Targeted re-annotation looks for such covers per match, by the
-- tokens before the match; this partial index answers from the index alone, however many spans of the
-- document were decided public or are the rules' only.
CREATE INDEX IF NOT EXISTS annotation_private_idx ON annotation (document_id, first_token, end_token)
    WHERE token_decision = 'PRIVATE';
