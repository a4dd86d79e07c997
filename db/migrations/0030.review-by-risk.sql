-- Review by risk: a project may route text to a review depth by the risk that it hides a personal mention
-- nobody marked ('risk'), or have people read everything ('full', the default).  A stratified QA sample of the
-- sentences nobody read certifies a one-sided 95 % bound on the share of missed mentions; the release waits for
-- that bound to be below the project's target.

ALTER TABLE project ADD COLUMN IF NOT EXISTS review_mode text NOT NULL DEFAULT 'full'
    CONSTRAINT project_review_mode CHECK (review_mode IN ('full', 'risk'));
ALTER TABLE project ADD COLUMN IF NOT EXISTS qa_target double precision NOT NULL DEFAULT 0.005
    CONSTRAINT project_qa_target CHECK (qa_target > 0 AND qa_target < 0.5);

CREATE TABLE IF NOT EXISTS risk_sample (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    created_by  bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- unread sentences the sample was drawn from, and the masked mentions of the project at that time
    population  integer NOT NULL CHECK (population >= 0),
    mentions    integer NOT NULL CHECK (mentions >= 0)
);
CREATE INDEX IF NOT EXISTS risk_sample_project_idx ON risk_sample (project_id, id);

CREATE TABLE IF NOT EXISTS risk_sample_sentence (
    sample_id   bigint NOT NULL REFERENCES risk_sample (id) ON DELETE CASCADE,
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    first_token integer NOT NULL,
    end_token   integer NOT NULL,
    stratum     integer NOT NULL,
    risk        real NOT NULL,
    -- mentions nobody had marked that the reviewer found in the sentence (NULL: not reviewed yet)
    misses      integer CHECK (misses >= 0 AND misses <= 1000),
    reviewed_by bigint REFERENCES account (id) ON DELETE SET NULL,
    reviewed_at timestamptz,
    PRIMARY KEY (sample_id, document_id, first_token),
    CONSTRAINT risk_sample_sentence_range CHECK (0 <= first_token AND first_token < end_token)
);
