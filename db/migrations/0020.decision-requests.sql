-- Client request ids of the annotators' decisions (psan.store.decision_requests): a retried request
-- (the answer was lost, the database restarted) is recognized and not decided twice.
CREATE TABLE IF NOT EXISTS decision_request (
    account_id  bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    request_id  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, request_id)
);
CREATE INDEX IF NOT EXISTS decision_request_created_idx ON decision_request (created_at);
