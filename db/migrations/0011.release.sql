-- Safe release (issue 10): what the output does with spans still undecided, and QA samples.
-- project.undecided_output: 'mask' (default, fail closed: suspicious spans are rendered like
-- private ones) or 'keep' (explicit: suspicious spans are written as public, as before).
-- qa_sample / qa_sample_token: a random sample of public-decided tokens a second reviewer marks
-- ok / miss; the release report derives a Clopper–Pearson upper bound from it.  Tokens are kept
-- by (document, token id): no document text is copied here.
ALTER TABLE project ADD COLUMN IF NOT EXISTS undecided_output text NOT NULL DEFAULT 'mask';
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_undecided_output;
ALTER TABLE project ADD CONSTRAINT project_undecided_output CHECK (undecided_output IN ('mask', 'keep'));

CREATE TABLE IF NOT EXISTS qa_sample (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    created_by  bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS qa_sample_project_idx ON qa_sample (project_id, id DESC);

CREATE TABLE IF NOT EXISTS qa_sample_token (
    sample_id    bigint NOT NULL REFERENCES qa_sample (id) ON DELETE CASCADE,
    document_id  bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    token_id     integer NOT NULL,
    verdict      text,
    reviewed_by  bigint REFERENCES account (id) ON DELETE SET NULL,
    reviewed_at  timestamptz,
    PRIMARY KEY (sample_id, document_id, token_id),
    CONSTRAINT qa_sample_token_verdict CHECK (verdict IS NULL OR verdict IN ('ok', 'miss'))
);
