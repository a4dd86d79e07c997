-- Annotation window bookkeeping and indexes for the annotation window / decision endpoints.
-- decisions: how many decisions the account made in its current window (an annotator may not
-- leave a window without one); forced: an admin opened it explicitly (any document/position).
ALTER TABLE annotation_window
    ADD COLUMN IF NOT EXISTS created_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN IF NOT EXISTS decisions integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS forced boolean NOT NULL DEFAULT false;
-- "first undecided span of a document" without visiting decided annotations
CREATE INDEX IF NOT EXISTS annotation_undecided_idx ON annotation (document_id, first_token)
    WHERE token_decision IS NULL;
-- history of one span in the decision detail
CREATE INDEX IF NOT EXISTS decision_log_span_idx ON decision_log (document_id, first_token, end_token);
